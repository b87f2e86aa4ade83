"""The profile form of /settings: display name, currency, timezone and language."""

import functools

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from zeus.money import CURRENCY_EXPONENTS
from zeus.timeutil import timezone_names

# The zones most people here pick come first; any IANA name is accepted.
COMMON_TIMEZONES = [
    "Asia/Ho_Chi_Minh",
    "Asia/Bangkok",
    "Asia/Singapore",
    "Asia/Tokyo",
    "Europe/London",
    "America/New_York",
]


class ProfileForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=100, required=False)
    currency = forms.ChoiceField(
        label=_("Currency"),
        choices=[(c, c) for c in CURRENCY_EXPONENTS],
        help_text=_("New records use it; existing ones keep theirs."),
    )
    timezone = forms.CharField(
        label=_("Timezone"),
        max_length=64,
        help_text=_("Your 'today' follows it, e.g. Asia/Ho_Chi_Minh."),
        widget=forms.TextInput(attrs={"list": "timezones", "autocomplete": "off"}),
    )
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, widget=forms.RadioSelect)

    def clean_timezone(self):
        name = self.cleaned_data["timezone"].strip()
        if name not in timezone_names():
            raise forms.ValidationError(
                _("Choose a timezone from the list, such as Asia/Ho_Chi_Minh."), code="timezone"
            )
        return name

    def service_values(self) -> dict:
        d = self.cleaned_data
        return {
            "display_name": d["display_name"],
            "currency": d["currency"],
            "timezone_name": d["timezone"],
            "language": d["language"],
        }

    @staticmethod
    def initial_for(profile) -> dict:
        return {
            "display_name": profile.display_name,
            "currency": profile.currency,
            "timezone": profile.timezone,
            "language": profile.language,
        }


@functools.cache
def timezone_choices() -> tuple[str, ...]:
    """The zones the form offers: the common ones first, then every other by name (listed on first use)."""
    return (*COMMON_TIMEZONES, *sorted(timezone_names() - set(COMMON_TIMEZONES)))

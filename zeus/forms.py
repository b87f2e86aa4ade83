"""What every page's forms share: service errors shown next to their field, and the page-route helper."""

from django import forms
from django.urls import path
from django.utils.translation import gettext as _

from zeus.errors import ZeusError
from zeus.money import DEFAULT_CURRENCY, InvalidAmount, parse_money


def add_service_error(form: forms.Form, exc: ZeusError, *, fields_map: dict | None = None) -> None:
    """Shows a service error on the form: on the field it names when the form has it, else on the form."""
    placed = False
    for name, messages in (exc.fields or {}).items():
        target = (fields_map or {}).get(name, name)
        if target in form.fields:
            for message in messages if isinstance(messages, list) else [messages]:
                form.add_error(target, str(message))
            placed = True
    if not placed:
        form.add_error(None, exc.message)


def page_paths(route: str, view, name: str) -> list:
    """A page that answers at `route` and at `route/` alike (the pages' routes are documented in docs/pages.md):
    no redirect, so a bookmark, a typed URL and a link all get the page in one response."""
    paths = [path(route, view, name=name)]
    if route and not route.endswith("/"):
        paths.append(path(route + "/", view))
    return paths


class AmountField(forms.CharField):
    """An amount as people type it (`150k`, `2tr`, `1.250.000`, `$12.50`), checked with the one parser the
    services use and kept as text for them; the message is in the person's language."""

    def __init__(self, *args, allow_zero: bool = False, **kwargs):
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}))
        super().__init__(*args, **kwargs)
        self.allow_zero = allow_zero
        self.currency = DEFAULT_CURRENCY

    def clean(self, value):
        value = super().clean(value)
        if value in self.empty_values:
            return value
        try:
            parse_money(value, self.currency, allow_zero=self.allow_zero)
        except InvalidAmount:
            raise forms.ValidationError(
                _("Enter an amount in %(currency)s, like 150k, 2tr or 1,250,000.") % {"currency": self.currency},
                code="invalid_amount",
            ) from None
        return value


def set_currency(form: forms.Form, currency: str) -> None:
    """Tells a form's amount fields which currency their amounts are in."""
    for field in form.fields.values():
        if isinstance(field, AmountField):
            field.currency = currency

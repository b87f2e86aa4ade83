"""The two insights recurring series raise, as drafts: a price that rose, and a bill the plan cannot cover.

The texts are written in the language active when a draft is made: the caller speaks each reader's language
(docs/i18n.md)."""

import datetime as dt
from decimal import Decimal

from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from suggestions.drafts import Draft, chat_url
from suggestions.models import RecurringSeries, Suggestion
from zeus.money import format_amount, quantize


def _money(amount: Decimal, currency: str) -> str:
    return format_amount(amount, currency, locale=translation.get_language())


def price_change_draft(series: RecurringSeries, *, previous: Decimal) -> Draft:
    """Once per rise: the key names the series and the date of the charge that rose."""
    c = series.currency
    facts = {
        "merchant": series.merchant,
        "before": _money(previous, c),
        "after": _money(series.amount, c),
        "on": date_format(series.last_on),
    }
    prompt = _("%(merchant)s now charges me %(after)s instead of %(before)s; is it still worth it?") % facts
    return Draft(
        kind=Suggestion.Kind.PRICE_CHANGE,
        dedupe_key=f"price_change:{series.id}:{series.last_on.isoformat()}",
        title=_("%(merchant)s went up: %(before)s → %(after)s") % facts,
        body=_("%(merchant)s charged %(after)s on %(on)s, up from %(before)s.") % facts,
        prompt=prompt,
        cta_url=chat_url(prompt),
        payload={
            "series_id": series.id,
            "previous_amount": str(quantize(previous, c)),
            "amount": str(quantize(series.amount, c)),
            "currency": c,
            "charged_on": series.last_on.isoformat(),
        },
    )


def bill_due_draft(series: RecurringSeries, *, safe_left: Decimal, today: dt.date) -> Draft:
    """Once per expected charge: the key names the series and the date it is due."""
    c = series.currency
    days = (series.next_on - today).days
    if days == 0:
        when = _("today")
    elif days == 1:
        when = _("tomorrow")
    else:
        when = ngettext("in %(days)d day", "in %(days)d days", days) % {"days": days}
    facts = {
        "merchant": series.merchant,
        "amount": _money(series.amount, c),
        "left": _money(safe_left, c),
        "when": when,
        "on": date_format(series.next_on, "MONTH_DAY_FORMAT"),
    }
    prompt = _("My %(merchant)s bill of %(amount)s is due %(when)s; how do I cover it this month?") % facts
    return Draft(
        kind=Suggestion.Kind.BILL_DUE,
        dedupe_key=f"bill_due:{series.id}:{series.next_on.isoformat()}",
        title=_("%(merchant)s (%(amount)s) is due %(when)s") % facts,
        body=_(
            "%(merchant)s usually charges %(amount)s around %(on)s, more than the %(left)s your plan has left "
            "to spend safely this month."
        )
        % facts,
        prompt=prompt,
        cta_url=chat_url(prompt),
        payload={
            "series_id": series.id,
            "amount": str(quantize(series.amount, c)),
            "safe_left": str(quantize(safe_left, c)),
            "currency": c,
            "due_on": series.next_on.isoformat(),
        },
    )

"""The two insights recurring series raise, as drafts: a price that rose, and a bill the plan cannot cover.

Each keeps its facts; its sentences come from suggestions/insights/wording.py, written when read in the
reader's language. The draft's own text (the fallback) is in the language active when it is made: the caller
speaks each reader's language (docs/i18n.md)."""

import datetime as dt
from decimal import Decimal

from suggestions.drafts import Draft
from suggestions.insights import wording
from suggestions.models import RecurringSeries, Suggestion
from zeus.money import quantize


def price_change_draft(series: RecurringSeries, *, previous: Decimal) -> Draft:
    """Once per rise: the key names the series and the date of the charge that rose."""
    c = series.currency
    payload = {
        "series_id": series.id,
        "merchant": series.merchant,
        "previous_amount": str(quantize(previous, c)),
        "amount": str(quantize(series.amount, c)),
        "currency": c,
        "charged_on": series.last_on.isoformat(),
    }
    words = wording.price_change(payload)
    return Draft(
        kind=Suggestion.Kind.PRICE_CHANGE,
        dedupe_key=f"price_change:{series.id}:{series.last_on.isoformat()}",
        title=words.title,
        body=words.body,
        prompt=words.prompt,
        cta_url=words.cta_url,
        payload=payload,
    )


def bill_due_draft(series: RecurringSeries, *, safe_left: Decimal, today: dt.date) -> Draft:
    """Once per expected charge: the key names the series and the date it is due."""
    c = series.currency
    payload = {
        "series_id": series.id,
        "merchant": series.merchant,
        "amount": str(quantize(series.amount, c)),
        "safe_left": str(quantize(safe_left, c)),
        "currency": c,
        "due_on": series.next_on.isoformat(),
        "days": (series.next_on - today).days,
    }
    words = wording.bill_due(payload)
    return Draft(
        kind=Suggestion.Kind.BILL_DUE,
        dedupe_key=f"bill_due:{series.id}:{series.next_on.isoformat()}",
        title=words.title,
        body=words.body,
        prompt=words.prompt,
        cta_url=words.cta_url,
        payload=payload,
    )

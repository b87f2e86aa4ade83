"""The two insights recurring series raise, as drafts: a price that rose, and a bill the plan cannot cover."""

import datetime as dt
from decimal import Decimal

from suggestions.drafts import Draft, chat_url
from suggestions.models import RecurringSeries, Suggestion
from zeus.money import format_amount, quantize


def price_change_draft(series: RecurringSeries, *, previous: Decimal) -> Draft:
    """Once per rise: the key names the series and the date of the charge that rose."""
    c = series.currency
    before, after = format_amount(previous, c), format_amount(series.amount, c)
    prompt = f"{series.merchant} now charges me {after} instead of {before}; is it still worth it?"
    return Draft(
        kind=Suggestion.Kind.PRICE_CHANGE,
        dedupe_key=f"price_change:{series.id}:{series.last_on.isoformat()}",
        title=f"{series.merchant} went up: {before} → {after}",
        body=f"Your {series.interval} {series.kind} at {series.merchant} charged {after} on "
        f"{series.last_on:%d %b %Y}, up from {before}.",
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
    amount, left = format_amount(series.amount, c), format_amount(safe_left, c)
    days = (series.next_on - today).days
    when = "today" if days == 0 else "tomorrow" if days == 1 else f"in {days} days"
    prompt = f"My {series.merchant} bill of {amount} is due {when}; how do I cover it this month?"
    return Draft(
        kind=Suggestion.Kind.BILL_DUE,
        dedupe_key=f"bill_due:{series.id}:{series.next_on.isoformat()}",
        title=f"{series.merchant} ({amount}) is due {when}",
        body=f"{series.merchant} usually charges {amount} around {series.next_on:%d %b}, more than the {left} "
        f"your plan has left to spend safely this month.",
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

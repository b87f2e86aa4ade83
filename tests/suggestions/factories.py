"""Ledgers with a known shape for the insight tests."""

import datetime as dt
from decimal import Decimal

from suggestions.models import Suggestion
from tests import factories

# A Thursday, three days into December: the last 7 days hold the 1st (rent day); ISO week 2026-W49.
NOW = dt.datetime(2026, 12, 3, 5, 0, tzinfo=dt.UTC)
TODAY = dt.date(2026, 12, 3)


def day(days_ago: int) -> dt.date:
    return TODAY - dt.timedelta(days=days_ago)


def steady_life(user, *, weeks: int = 13, today: dt.date = TODAY) -> None:
    """Thirteen ordinary weeks: groceries, two meals out, a ride. None of it is an insight."""
    for k in range(weeks):
        start = today - dt.timedelta(days=7 * k)
        factories.txn(
            user,
            category="groceries",
            description="Co.op Mart",
            amount=600_000 + 37_000 * (k % 5),
            occurred_on=start - dt.timedelta(days=2),
        )
        factories.txn(
            user,
            category="dining",
            description="Pho 24",
            amount=85_000 + 5_000 * (k % 4),
            occurred_on=start - dt.timedelta(days=1),
        )
        factories.txn(
            user,
            category="dining",
            description="Highlands Coffee",
            amount=55_000 + 5_000 * (k % 3),
            occurred_on=start - dt.timedelta(days=4),
        )
        factories.txn(
            user,
            category="transport",
            description="Grab",
            amount=60_000 + 3_000 * k,
            occurred_on=start - dt.timedelta(days=3),
        )


def weekly(user, *, category: str, amounts: list, description: str = "", days_into_window: int = 0) -> None:
    """One expense per 7-day window, newest first: amounts[0] lands in the last 7 days. Zero skips a week."""
    for k, amount in enumerate(amounts):
        if Decimal(amount) > 0:
            factories.txn(
                user,
                category=category,
                description=description or category.title(),
                amount=amount,
                occurred_on=day(7 * k + days_into_window),
            )


def suggestion(owner, *, kind="next_best_action", key=None, status="active", title="Set a monthly budget", **extra):
    return Suggestion.objects.create(
        user=owner,
        kind=kind,
        dedupe_key=key or f"{kind}:{Suggestion.objects.count()}",
        title=title,
        body=extra.pop("body", "A budget lets Zeus warn you."),
        cta_url=extra.pop("cta_url", "/chat?prompt=Help%20me"),
        prompt=extra.pop("prompt", "Help me"),
        status=status,
        **extra,
    )

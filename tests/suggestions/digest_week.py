"""The week the weekly review tests read: Sunday 29 November 2026 at 09:00 in Saigon, an ordinary month of
spending before it, a bill due the week after."""

import datetime as dt

from suggestions.models import RecurringSeries, WeeklyDigest
from tests import factories

SUNDAY_9_SAIGON = dt.datetime(2026, 11, 29, 2, 0, tzinfo=dt.UTC)  # 09:00 in Asia/Ho_Chi_Minh
WEEK = "2026-W48"  # Monday 23 to Sunday 29 November 2026
MONDAY = dt.date(2026, 11, 23)


def spend(user, amount, on, category="dining", description="Pho 24"):
    return factories.txn(user, amount=amount, occurred_on=on, category=category, description=description)


def ordinary_month(user):
    """Four weeks at 1,000,000 a week, then a week of 1,500,000 with a big purchase."""
    for k in range(1, 5):
        spend(user, 1_000_000, MONDAY - dt.timedelta(days=7 * k - 2), "groceries", "Co.op Mart")
    spend(user, 300_000, MONDAY + dt.timedelta(days=1), "dining", "Pizza 4P's")
    spend(user, 1_200_000, MONDAY + dt.timedelta(days=3), "shopping", "Uniqlo")
    spend(user, 999_000, MONDAY + dt.timedelta(days=7), "shopping", "Next week")  # not this week


def netflix_due(user) -> RecurringSeries:
    """A monthly Netflix bill next due on 2 December: the review's bills due this week."""
    return RecurringSeries.objects.create(
        user=user, key="netflix", direction="expense", merchant="Netflix", kind="subscription",
        amount=260_000, currency="VND", interval="monthly", last_on=dt.date(2026, 11, 2),
        next_on=dt.date(2026, 12, 2), category="subscriptions", occurrences=3,
    )  # fmt: skip


def review(user) -> WeeklyDigest:
    return WeeklyDigest.objects.get(user=user, iso_week=WEEK)

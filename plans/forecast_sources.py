"""What the forecast asks of apps above plans (which it cannot import, docs/architecture.md): the users' recurring
series, income included, through the `recurring_series` signal, and their outgoing ones summed through
`recurring_outflows`; suggestions answers
(suggestions/recurring/forecast_answers.py)."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.dispatch import Signal

# kwargs: user_ids, until (a date); each receiver returns a list of Series active and due by `until`, of any of
# those users, in as few queries as it can (the nightly watch asks for a whole batch at once).
recurring_series = Signal()

# kwargs: user_ids, until (a date); each receiver returns a list of Outflows: per user, currency and interval,
# what their active series that take money out and are due by `until` add up to, in one aggregate query for a
# whole batch (the nightly watch bounds each user's bills with it before reading anyone's series one by one).
recurring_outflows = Signal()


@dataclass(frozen=True)
class Series:
    user_id: int
    name: str
    kind: str  # subscription, bill, income
    direction: str  # expense, income
    amount: Decimal
    currency: str
    interval: str  # weekly, monthly, yearly
    next_on: dt.date
    category: str


def series_of(*, user_ids, until: dt.date) -> dict[int, list[Series]]:
    """Each user's series due by `until`, soonest first."""
    found: dict[int, list[Series]] = {user_id: [] for user_id in user_ids}
    for _receiver, answer in recurring_series.send(sender=None, user_ids=list(found), until=until):
        for series in answer or []:
            found[series.user_id].append(series)
    return {user_id: sorted(rows, key=lambda s: (s.next_on, s.name)) for user_id, rows in found.items()}


@dataclass(frozen=True)
class Outflows:
    """Some of a user's outgoing series, summed: those in one currency and at one interval."""

    user_id: int
    currency: str
    interval: str  # weekly, monthly, yearly
    total: Decimal  # their amounts added up
    count: int  # how many series
    first_on: dt.date  # the earliest next charge among them


def outflows_of(*, user_ids, until: dt.date) -> dict[int, list[Outflows]]:
    """Each user's outgoing series due by `until`, summed per currency and interval."""
    found: dict[int, list[Outflows]] = {user_id: [] for user_id in user_ids}
    for _receiver, answer in recurring_outflows.send(sender=None, user_ids=list(found), until=until):
        for outflows in answer or []:
            found[outflows.user_id].append(outflows)
    return found

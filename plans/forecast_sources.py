"""What the forecast asks of apps above plans (which it cannot import, DESIGN.md): the user's recurring
series, income included, through the `recurring_series` signal; suggestions answers
(suggestions/recurring/forecast_answers.py)."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.dispatch import Signal

# kwargs: user, until (a date); each receiver returns a list of Series active and due by `until`.
recurring_series = Signal()


@dataclass(frozen=True)
class Series:
    name: str
    kind: str  # subscription, bill, income
    direction: str  # expense, income
    amount: Decimal
    currency: str
    interval: str  # weekly, monthly, yearly
    next_on: dt.date
    category: str


def series_for(*, user, until: dt.date) -> list[Series]:
    found: list[Series] = []
    for _receiver, answer in recurring_series.send(sender=None, user=user, until=until):
        found.extend(answer or [])
    return sorted(found, key=lambda s: (s.next_on, s.name))

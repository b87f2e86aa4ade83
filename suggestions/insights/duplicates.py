"""Duplicate charges among candidate rows the nightly read picked. Pure: rows in, clusters out.

Transactions carry a date, not a time, so "within 24 hours" cannot be measured; docs/suggestions.md
("What a duplicate is") gives the reading this module implements.
"""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from suggestions.merchants import counterparty
from suggestions.thresholds import HABIT_OTHER_DAYS, RECURRING_OTHER_DAYS


@dataclass(frozen=True)
class Row:
    id: int
    user_id: int
    direction: str
    currency: str
    amount: Decimal
    description: str
    occurred_on: dt.date


@dataclass(frozen=True)
class Cluster:
    rows: tuple[Row, ...]  # oldest first, at least two, on one date or on two adjacent dates

    @property
    def first(self) -> Row:
        return self.rows[0]

    @property
    def merchant(self) -> str:
        return counterparty(self.first.description)

    @property
    def days(self) -> set[dt.date]:
        return {r.occurred_on for r in self.rows}


def _key(row: Row) -> tuple:
    return (row.user_id, row.direction, row.currency, counterparty(row.description), row.amount)


def candidate_clusters(rows: list[Row]) -> list[Cluster]:
    """Same user, direction, currency, counterparty and amount: two or more on one date, or one on each of
    two adjacent dates with no such charge the day before or after (three days in a row is a habit).

    A date with several such charges is a habit, not a duplicate, when the same happens on other dates too
    (a fare both ways every day). A row without a counterparty name cannot be told apart from an honest
    second purchase and is left out.
    """
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for row in rows:
        if counterparty(row.description):
            groups[_key(row)].append(row)
    out = []
    for members in groups.values():
        by_date: dict[dt.date, list[Row]] = defaultdict(list)
        for row in sorted(members, key=lambda r: (r.occurred_on, r.id)):
            by_date[row.occurred_on].append(row)
        crowded = [d for d, rs in by_date.items() if len(rs) > 1]
        for date in crowded:
            if len(crowded) - 1 < RECURRING_OTHER_DAYS:
                out.append(Cluster(tuple(by_date[date])))
        day = dt.timedelta(days=1)
        for date, first in by_date.items():
            nxt = by_date.get(date + day)
            if (
                len(first) == 1
                and nxt is not None
                and len(nxt) == 1
                and date - day not in by_date
                and date + 2 * day not in by_date
            ):
                out.append(Cluster((first[0], nxt[0])))
    return out


def settled(cluster: Cluster, related: list[Row]) -> bool:
    """`related`: the user's lookback rows with the cluster's amount. Settled is the same counterparty
    paying that amount back (the other direction) on or after the cluster's first day."""
    first = cluster.first
    return any(
        r.direction != first.direction
        and r.currency == first.currency
        and r.occurred_on >= first.occurred_on
        and counterparty(r.description) == cluster.merchant
        for r in related
    )


def recurring_amount(cluster: Cluster, related: list[Row]) -> bool:
    """The same counterparty charging the same amount on other days (a subscription, a fare, the usual
    coffee): two such charges a day apart are that series, not a duplicate."""
    first = cluster.first
    days = {
        r.occurred_on
        for r in related
        if (r.direction, r.currency) == (first.direction, first.currency)
        and counterparty(r.description) == cluster.merchant
    }
    return len(days - cluster.days) >= RECURRING_OTHER_DAYS


def two_visits(cluster: Cluster, lookback: list[Row]) -> bool:
    """At a merchant seen on at least four other days, any amount, equal charges on adjacent days are two
    rides or two lunches."""
    first = cluster.first
    visits = {
        r.occurred_on
        for r in lookback
        if (r.user_id, r.direction, r.currency) == (first.user_id, first.direction, first.currency)
        and counterparty(r.description) == cluster.merchant
    }
    return len(visits - cluster.days) >= HABIT_OTHER_DAYS


def is_habit_suspect(cluster: Cluster) -> bool:
    """Only a cluster spread over two dates can be a habit; one date is a double charge."""
    return len(cluster.days) > 1

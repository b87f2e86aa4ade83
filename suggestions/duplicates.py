"""Duplicate charges among candidate rows the database picked. Pure: rows in, clusters out."""

import datetime as dt
import functools
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from suggestions.thresholds import HABIT_OTHER_DAYS, RECURRING_OTHER_DAYS

# Words a bank adds to a refund's description ("Refund: CGV Cinemas", "Hoàn tiền Shopee"); without them
# the refund names the same merchant as the purchase.
_REFUND_WORDS = {"refund", "refunded", "reversal", "reversed", "return", "returned", "chargeback"}
_REFUND_PHRASE = re.compile(r"\bhoan tien\b")


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
    rows: tuple[Row, ...]  # oldest first, at least two, each within a day of the one before

    @property
    def first(self) -> Row:
        return self.rows[0]

    @property
    def merchant(self) -> str:
        return normalize_merchant(self.first.description)

    @property
    def days(self) -> set[dt.date]:
        return {r.occurred_on for r in self.rows}


@functools.lru_cache(maxsize=4096)
def normalize_merchant(description: str) -> str:
    """`CGV Cinemas`, `CGV CINEMAS #0231` and `Refund: cgv cinemas` are one merchant: `cgv cinemas`.

    Accents go (bank feeds drop them inconsistently), tokens with digits go (references, terminal ids),
    and so do refund words.
    """
    text = unicodedata.normalize("NFKD", description or "").replace("đ", "d").replace("Đ", "D")
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    tokens = re.split(r"[^a-z0-9]+", _REFUND_PHRASE.sub(" ", text))
    return " ".join(t for t in tokens if t and not any(c.isdigit() for c in t) and t not in _REFUND_WORDS)


def clusters_within_a_day(rows: list[Row]) -> list[Cluster]:
    """Same user, direction, currency, merchant and amount, each charge at most a day after the one before.

    Occurrence dates carry no time, so "within 24 hours" is the same day or the next. A row without a
    merchant name cannot be told apart from an honest second purchase and is left out.
    """
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for row in rows:
        merchant = normalize_merchant(row.description)
        if merchant:
            groups[(row.user_id, row.direction, row.currency, merchant, row.amount)].append(row)
    out = []
    for members in groups.values():
        members.sort(key=lambda r: (r.occurred_on, r.id))
        run = [members[0]]
        for row in members[1:]:
            if (row.occurred_on - run[-1].occurred_on).days <= 1:
                run.append(row)
                continue
            if len(run) > 1:
                out.append(Cluster(tuple(run)))
            run = [row]
        if len(run) > 1:
            out.append(Cluster(tuple(run)))
    return out


def settled_or_recurring(cluster: Cluster, series: list[Row]) -> bool:
    """`series`: the user's lookback rows with the cluster's amount. A known recurring series is the same
    merchant charging the same amount on at least two other days (a subscription, a fare, the usual coffee);
    settled is the merchant paying that amount back (the other direction) on or after the first day."""
    first = cluster.first
    merchant = cluster.merchant
    related = [r for r in series if r.currency == first.currency and normalize_merchant(r.description) == merchant]
    recurring = {r.occurred_on for r in related if r.direction == first.direction} - cluster.days
    refunded = any(r.direction != first.direction and r.occurred_on >= first.occurred_on for r in related)
    return len(recurring) >= RECURRING_OTHER_DAYS or refunded


def two_visits(cluster: Cluster, lookback: list[Row]) -> bool:
    """Occurrence dates carry no time: at a merchant seen on at least four other days, equal charges on
    consecutive days are two rides or two lunches. On the same day they still count (a double swipe)."""
    if len(cluster.days) == 1:
        return False
    first = cluster.first
    visits = {
        r.occurred_on
        for r in lookback
        if (r.user_id, r.direction, r.currency) == (first.user_id, first.direction, first.currency)
        and normalize_merchant(r.description) == cluster.merchant
    }
    return len(visits - cluster.days) >= HABIT_OTHER_DAYS

"""Duplicate charges among candidate rows the database picked. Pure: rows in, clusters out."""

import datetime as dt
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


def real_duplicates(clusters: list[Cluster], lookback: list[Row]) -> list[Cluster]:
    """Drops the clusters that are not a mistake. `lookback` holds the cluster users' rows of the 90 days.

    - A known recurring series: the same merchant charged the same amount on at least two other days
      (a subscription, a fare, the usual coffee).
    - Settled: the merchant paid that amount back (the other direction) on or after the cluster's first day.
    - Two visits: at a merchant seen on at least four other days, equal charges on consecutive days are
      two rides or two lunches; on the same day they still count (a double swipe).
    """
    days_by_merchant: dict[tuple, set[dt.date]] = defaultdict(set)
    same_amount: dict[tuple, list[Row]] = defaultdict(list)
    for row in lookback:
        merchant = normalize_merchant(row.description)
        days_by_merchant[(row.user_id, row.direction, row.currency, merchant)].add(row.occurred_on)
        same_amount[(row.user_id, row.currency, merchant, row.amount)].append(row)
    out = []
    for cluster in clusters:
        first = cluster.first
        related = same_amount.get((first.user_id, first.currency, cluster.merchant, first.amount), [])
        recurring = {r.occurred_on for r in related if r.direction == first.direction} - cluster.days
        refunded = any(r.direction != first.direction and r.occurred_on >= first.occurred_on for r in related)
        visits = days_by_merchant.get((first.user_id, first.direction, first.currency, cluster.merchant), set())
        two_visits = len(cluster.days) > 1 and len(visits - cluster.days) >= HABIT_OTHER_DAYS
        if len(recurring) < RECURRING_OTHER_DAYS and not refunded and not two_visits:
            out.append(cluster)
    return out

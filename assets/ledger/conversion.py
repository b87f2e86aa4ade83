"""Currency conversion, pure: no ORM, no clock. Every amount converts at the rate of its own day (the latest
rate on or before it); an amount with no such rate is named as missing, never converted at 1:1.

A rate says how many `to` one `from` buys. Vietcombank publishes each currency against VND, so a pair with
no rate of its own is read backwards (1 / rate) or through VND (USD→EUR = USD→VND / EUR→VND), each side at
its latest rate on or before the day.
"""

import bisect
import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from zeus.money import quantize

PIVOT = "VND"
DERIVED = "derived"


@dataclass(frozen=True)
class RateRow:
    day: dt.date
    from_currency: str
    to_currency: str
    rate: Decimal
    source: str
    own: bool = False  # the user's own rate: it wins over a published one for the same day


@dataclass(frozen=True)
class FoundRate:
    rate: Decimal
    day: dt.date  # the day the rate was set (on or before the day asked)
    source: str  # "vietcombank", "user", or "derived" for an inverse or a cross through VND


@dataclass(frozen=True)
class Converted:
    amount: Decimal  # the original, in `currency`
    currency: str
    day: dt.date
    to_currency: str
    converted: Decimal | None  # None: no rate on or before `day`
    rate: Decimal | None
    rate_day: dt.date | None

    @property
    def missing(self) -> bool:
        return self.converted is None


@dataclass
class Total:
    """A sum in one currency: what converted, and apart what could not (`missing`, never added in)."""

    currency: str
    total: Decimal
    entries: list[Converted] = field(default_factory=list)
    missing: list[Converted] = field(default_factory=list)


class RateTable:
    def __init__(self, rows: Iterable[RateRow] = ()):
        chosen: dict[tuple[str, str, dt.date], RateRow] = {}
        for row in rows:
            key = (row.from_currency, row.to_currency, row.day)
            kept = chosen.get(key)
            if kept is None or (row.own and not kept.own):
                chosen[key] = row
        series: dict[tuple[str, str], list[RateRow]] = defaultdict(list)
        for row in chosen.values():
            series[(row.from_currency, row.to_currency)].append(row)
        self._days = {}
        self._rows = {}
        for pair, rows_of_pair in series.items():
            rows_of_pair.sort(key=lambda r: r.day)
            self._rows[pair] = rows_of_pair
            self._days[pair] = [r.day for r in rows_of_pair]

    def _latest(self, from_currency: str, to_currency: str, day: dt.date) -> RateRow | None:
        days = self._days.get((from_currency, to_currency))
        if not days:
            return None
        at = bisect.bisect_right(days, day)
        return self._rows[(from_currency, to_currency)][at - 1] if at else None

    def _direct(self, from_currency: str, to_currency: str, day: dt.date) -> FoundRate | None:
        row = self._latest(from_currency, to_currency, day)
        if row is not None:
            return FoundRate(row.rate, row.day, row.source)
        row = self._latest(to_currency, from_currency, day)
        if row is not None:
            return FoundRate(_places(Decimal(1) / row.rate), row.day, DERIVED)
        return None

    def rate_on(self, from_currency: str, to_currency: str, day: dt.date) -> FoundRate | None:
        """The rate of the pair on `day` (the latest set on or before it), or None when none is known."""
        if from_currency == to_currency:
            return FoundRate(Decimal(1), day, DERIVED)
        found = self._direct(from_currency, to_currency, day)
        if found is not None or PIVOT in (from_currency, to_currency):
            return found
        there = self._direct(from_currency, PIVOT, day)
        back = self._direct(to_currency, PIVOT, day)
        if there is None or back is None:
            return None
        return FoundRate(_places(there.rate / back.rate), min(there.day, back.day), DERIVED)


def _places(rate: Decimal) -> Decimal:
    """A derived rate to twelve significant digits: enough for any amount the ledger holds."""
    return rate.quantize(Decimal(1).scaleb(rate.adjusted() - 11))


_ONE = Decimal(1)


def convert(amount: Decimal, currency: str, day: dt.date, *, to: str, table: RateTable) -> Converted:
    if currency == to:  # rate_on's answer for a currency into itself, without asking it (most rows a job reads)
        return Converted(amount, currency, day, to, quantize(amount, to), _ONE, day)
    found = table.rate_on(currency, to, day)
    if found is None:
        return Converted(amount, currency, day, to, None, None, None)
    return Converted(amount, currency, day, to, quantize(amount * found.rate, to), found.rate, found.day)


def total_in(items: Iterable[tuple[Decimal, str, dt.date]], *, to: str, table: RateTable) -> Total:
    """The sum of (amount, currency, day) items in `to`: each converted on its day; the ones with no rate
    are listed in `missing` and left out of `total`."""
    total = Total(currency=to, total=Decimal(0))
    for amount, currency, day in items:
        converted = convert(amount, currency, day, to=to, table=table)
        if converted.missing:
            total.missing.append(converted)
        else:
            total.entries.append(converted)
            total.total += converted.converted
    total.total = quantize(total.total, to)
    return total

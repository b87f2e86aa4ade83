"""Recurring series in a user's history. Pure: charges in, series out (docs/recurring.md explains each rule).

A series is one counterparty (suggestions.merchants.counterparty) charging or paying about the same amount
on a regular schedule — weekly, monthly or yearly, with a few days' slack — at least three times in a row,
with no other charge of that size from it in between (a daily lunch is a habit, not a weekly series).
"""

import bisect
import calendar
import datetime as dt
import functools
import operator
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from assets import categories
from suggestions.merchants import counterparty

WEEKLY, MONTHLY, YEARLY = "weekly", "monthly", "yearly"
SUBSCRIPTION, BILL, INCOME, TRANSFER = "subscription", "bill", "income", "transfer"
MIN_OCCURRENCES = 3


@dataclass(frozen=True)
class Cadence:
    name: str
    slack: int  # days a charge may land before or after its expected date
    spread: int  # the most the run's offsets from their expected dates may differ from each other
    late: int  # days past the expected date before a series counts as ended
    between: int  # other charges from the counterparty allowed between two of the series


CADENCES = (
    Cadence(WEEKLY, slack=1, spread=2, late=3, between=0),
    Cadence(MONTHLY, slack=4, spread=4, late=7, between=0),
    Cadence(YEARLY, slack=10, spread=14, late=21, between=3),
)
BY_NAME = {c.name: c for c in CADENCES}
_SLACK = {c.name: dt.timedelta(days=c.slack) for c in CADENCES}

# How far apart two charges of one series may be, as a share of the newer: a subscription's price is fixed
# (a card in another currency moves a little); a utility bill follows the meter; pay has overtime.
TOLERANCE = Decimal("0.02")
TOLERANCE_BY_CATEGORY = {"utilities": Decimal("0.35"), "salary": Decimal("0.10")}
# A next charge on time but outside the tolerance is the same series at a new price, up to this change.
PRICE_CHANGE_LIMIT = Decimal("0.50")


class Charge(NamedTuple):
    """A row of the ledger as the detection reads it: a tuple in the read's column order (suggestions.recurring.
    reads), named once its counterparty's group may hold a series (a frozen dataclass would set each field
    through object.__setattr__)."""

    id: int
    user_id: int
    direction: str
    currency: str
    amount: Decimal
    description: str
    category: str
    occurred_on: dt.date
    # The row is one side of a paired transfer between the user's own accounts (docs/recurring.md): a monthly
    # savings deposit is a recurring transfer, never a subscription.
    in_transfer: bool = False


@dataclass(frozen=True)
class Series:
    user_id: int
    direction: str
    currency: str
    key: str
    merchant: str
    kind: str
    category: str
    interval: str
    amount: Decimal
    previous_amount: Decimal | None  # the typical amount before the latest charge changed it
    last_on: dt.date
    next_on: dt.date
    occurrences: int

    @property
    def rose(self) -> bool:
        return self.previous_amount is not None and self.amount > self.previous_amount


def add_months(day: dt.date, months: int, *, anchor_day: int | None = None) -> dt.date:
    """`day` moved by whole months, on `anchor_day` (default: its own day) or the month's last day."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    return dt.date(year, month, min(anchor_day or day.day, calendar.monthrange(year, month)[1]))


@functools.lru_cache(maxsize=65536)
def step(day: dt.date, interval: str, k: int = 1) -> dt.date:
    """The expected date `k` periods after `day` (negative: before)."""
    if interval == WEEKLY:
        return day + dt.timedelta(days=7 * k)
    if interval == MONTHLY:
        return add_months(day, k)
    return add_months(day, 12 * k)


def next_expected(last_on: dt.date, interval: str) -> dt.date:
    return step(last_on, interval)


def is_overdue(series_next_on: dt.date, interval: str, today: dt.date) -> bool:
    """No charge past the expected date plus the cadence's slack: the series has stopped."""
    return today > series_next_on + dt.timedelta(days=BY_NAME[interval].late)


def tolerance(category: str) -> Decimal:
    return TOLERANCE_BY_CATEGORY.get(category, TOLERANCE)


def kind_of(direction: str, category: str, in_transfer: bool = False) -> str:
    if in_transfer:
        return TRANSFER
    if direction == "income":
        return INCOME
    return SUBSCRIPTION if categories.is_discretionary(category) else BILL


def _close(a: Decimal, b: Decimal, share: Decimal) -> bool:
    return abs(a - b) <= share * max(abs(a), abs(b))


def _run(
    ordered: list[Charge], dates: list[dt.date], end: int, cadence: Cadence
) -> tuple[list[Charge], list[list[Charge]]]:
    """The longest regular run ending at `ordered[end]`, newest last. Going back one period at a time, the
    charge that lands within the slack of its expected date with the amount nearest the newer one's joins
    when its amount is within the tolerance (or is an older price, within the price-change limit), the
    offsets from the expected dates agree within the spread, and between the two the counterparty charged
    nothing else (a yearly series allows a few): a daily lunch is not a weekly series, a shop visited every
    week is not a monthly one. With the run, its price segments (_segments) once it is long enough to count,
    else none."""
    last = ordered[end]
    run = [last]
    low = high = 0  # the run's offsets from their expected dates: the newest's is 0
    position = end
    slack = _SLACK[cadence.name]
    # Walked for every group, anchor and cadence of a night's batch: the walk keeps the offsets' range, not
    # their list, and slices the charges between only when some may be there.
    while True:
        newer = run[-1]
        expected = step(last.occurred_on, cadence.name, -len(run))
        start = bisect.bisect_left(dates, expected - slack, 0, position)
        stop = bisect.bisect_right(dates, expected + slack, 0, position)
        if start == stop:
            break
        i = start if stop - start == 1 else min(range(start, stop), key=lambda j: abs(ordered[j].amount - newer.amount))
        older = ordered[i]
        if not _close(older.amount, newer.amount, PRICE_CHANGE_LIMIT):
            break
        offset = (older.occurred_on - expected).days
        low, high = min(low, offset), max(high, offset)
        if high - low > cadence.spread:
            break
        gap = position - i - 1
        if gap > cadence.between:
            break
        if gap:
            share = tolerance(newer.category)
            if any(
                _close(c.amount, older.amount, share) or _close(c.amount, newer.amount, share)
                for c in ordered[i + 1 : position]
            ):
                break
        run.append(older)
        position = i
    if len(run) < MIN_OCCURRENCES:
        return run, []  # too short already: _steady only ever shortens it
    run.reverse()
    return _steady(run)


def _three_alike(amounts: list[Decimal], categories: Iterable[str]) -> bool:
    """Whether some three of these amounts are near enough to be one price: a run needs a price held three
    times (_steady), whose amounts chain within the tolerance, so they span at most twice it. Most everyday
    merchants fail this at once, before any date is looked at."""
    amounts = sorted(amounts)
    share = 2 * max(map(tolerance, set(categories)))
    return any(high - low <= share * high for low, high in zip(amounts, amounts[2:], strict=False))


def _median(values: Iterable[Decimal]) -> Decimal:
    return Decimal(statistics.median(values))


def _segments(run: list[Charge]) -> list[list[Charge]]:
    """The run split where the price changed, oldest first."""
    segment = [run[0]]
    out = [segment]
    for charge in run[1:]:
        if _close(charge.amount, segment[-1].amount, tolerance(charge.category)):
            segment.append(charge)
        else:
            segment = [charge]
            out.append(segment)
    return out


def _steady(run: list[Charge]) -> tuple[list[Charge], list[list[Charge]]]:
    """A price may change, but every price before the newest must have held for three charges at least:
    amounts that move now and then (rides, groceries, a cinema) are spending, not a series. Keeps the newest
    part of the run that obeys this, with its segments: whole segments of the run (a segment ends where a
    charge is not close to the one before it), so the kept part's own segments, which the series' amounts
    are read from."""
    segments = _segments(run)
    kept: list[Charge] = segments[-1]
    first = len(segments) - 1
    while first > 0 and len(segments[first - 1]) >= MIN_OCCURRENCES:
        first -= 1
        kept = segments[first] + kept
    return kept, segments[first:]


_DATE_THEN_ID = operator.attrgetter("occurred_on", "id")


def detect_group(charges: list[Charge]) -> Series | None:
    """The series in one counterparty's charges (one direction and currency), or None."""
    # Most of a night's groups are everyday merchants without three amounts alike: dropped before any sort
    # (the charges kept below are a subset of these, so a group failing here fails there too).
    if len(charges) < MIN_OCCURRENCES or not _three_alike([c.amount for c in charges], [c.category for c in charges]):
        return None
    return _detect_alike(charges)


def _detect_alike(charges: list[Charge]) -> Series | None:
    """detect_group for charges of which some three are alike in amount."""
    by_date: dict[dt.date, Charge] = {}
    for charge in sorted(charges, key=_DATE_THEN_ID):
        by_date.setdefault(charge.occurred_on, charge)
    ordered = list(by_date.values())
    if len(ordered) < MIN_OCCURRENCES or (
        len(ordered) < len(charges) and not _three_alike([c.amount for c in ordered], [c.category for c in ordered])
    ):
        return None
    dates = [c.occurred_on for c in ordered]
    best: tuple[int, dt.date, list[Charge], Cadence, list[list[Charge]]] | None = None
    # Anchor on the newest charges: the newest itself may be an extra purchase at the same merchant.
    for end in range(len(ordered) - 1, max(-1, len(ordered) - 4), -1):
        # A run ending at `end` has at most end + 1 charges and, from an older anchor, an older last charge:
        # once the best has that many, no later try can beat it (the same result, fewer walks).
        if best is not None and best[0] >= end + 1:
            break
        for cadence in CADENCES:
            if best is not None and best[0] >= end + 1:
                break
            run, segments = _run(ordered, dates, end, cadence)
            if len(run) < MIN_OCCURRENCES:
                continue
            score = (len(run), run[-1].occurred_on)
            if best is None or score > best[:2]:
                best = (*score, run, cadence, segments)
    if best is None:
        return None
    _, _, run, cadence, segments = best
    last = run[-1]
    previous_amount = None
    if len(segments[-1]) == 1:
        # The newest charge is a new price: the typical amount is that price from now on.
        typical, previous_amount = last.amount, _median(c.amount for c in segments[-2][-6:])
    else:
        typical = _median(c.amount for c in segments[-1][-6:])
    next_on = step(last.occurred_on, cadence.name)
    days = [c.occurred_on.day for c in run[-3:]]
    if cadence.name == MONTHLY and all(d >= 28 for d in days):
        # A bill due on the 31st comes back on the 31st after a short month, not on the 30th.
        next_on = add_months(last.occurred_on, 1, anchor_day=max(days))
    return Series(
        user_id=last.user_id,
        direction=last.direction,
        currency=last.currency,
        key=counterparty(last.description),
        merchant=last.description.strip()[:200],
        kind=kind_of(last.direction, last.category, last.in_transfer),
        category=last.category,
        interval=cadence.name,
        amount=typical,
        previous_amount=previous_amount,
        last_on=last.occurred_on,
        next_on=next_on,
        occurrences=len(run),
    )


# A row's place in Charge's field order: the job hands the detection the ledger's rows as plain tuples.
_WRITTEN = operator.itemgetter(1, 2, 3, 5)  # user_id, direction, currency, description as written
_AMOUNT, _CATEGORY = 4, 6


def detect(rows: Iterable[tuple]) -> list[Series]:
    """Every series in these rows (any users), each a Charge or a tuple in Charge's field order: grouped by
    user, direction, currency and counterparty."""
    # Grouped by the description as written first, then the groups of one counterparty merged: the merchant
    # folding runs once per distinct description of a user, not once per row. One pass over the rows as they
    # came; a group becomes Charges only once some three of its amounts are alike, which most everyday
    # merchants' are not.
    written: dict[tuple, list[tuple]] = defaultdict(list)
    for row in rows:
        written[_WRITTEN(row)].append(row)
    # Most descriptions are the only one of their counterparty: their list becomes the group as it is, and
    # only a second description of the same counterparty is appended to it.
    groups: dict[tuple, list[tuple]] = {}
    for (user_id, direction, currency, description), members in written.items():
        if key := counterparty(description):
            group = groups.setdefault((user_id, direction, currency, key), members)
            if group is not members:
                group.extend(members)
    found = []
    for members in groups.values():
        if len(members) < MIN_OCCURRENCES or not _three_alike(
            [row[_AMOUNT] for row in members], {row[_CATEGORY] for row in members}
        ):
            continue
        series = _detect_alike(list(map(Charge._make, members)))
        if series is not None:
            found.append(series)
    return found


def monthly_cost(amount: Decimal, interval: str) -> Decimal:
    """What a series costs a month on average: weekly * 52 / 12, yearly / 12."""
    if interval == WEEKLY:
        return amount * 52 / 12
    if interval == YEARLY:
        return amount / 12
    return amount


def yearly_cost(amount: Decimal, interval: str) -> Decimal:
    if interval == WEEKLY:
        return amount * 52
    if interval == MONTHLY:
        return amount * 12
    return amount

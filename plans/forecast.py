"""The cash-flow forecast, pure: no ORM, no clock (CONTRACT §9.1, docs/forecast.md).

Amounts are whole minor units of one currency; dates come in as arguments. Day 0 is today, at today's
balance (what happened today is in it). Each later day adds its expected events (income +, bills and
instalments -) and takes off the typical variable spending of a day; anything expected before tomorrow but not
yet in the ledger (an overdue instalment, a bill due today) falls on day 1.
"""

import calendar
import dataclasses
import datetime as dt
from collections.abc import Iterable, Sequence

MAX_DAYS = 90
DEFAULT_DAYS = 30  # when no income is expected to end the window
SHORTFALL_WINDOW = 14
WEEKLY, MONTHLY, YEARLY = "weekly", "monthly", "yearly"


@dataclasses.dataclass(frozen=True)
class Event:
    on: dt.date
    kind: str  # income, bill, subscription, debt, fixed, spending
    label: str
    amount: int  # signed: + comes in, - goes out
    category: str = ""  # the ledger category it is spent in, where known (a series', a debt instalment's)


@dataclasses.dataclass(frozen=True)
class Day:
    date: dt.date
    balance: int
    events: tuple[Event, ...]


@dataclasses.dataclass(frozen=True)
class Forecast:
    start_balance: int
    days: tuple[Day, ...]
    lowest: Day
    cushion: int

    @property
    def shortfall(self) -> bool:
        return self.lowest.balance < self.cushion


def _add_months(start: dt.date, months: int) -> dt.date:
    index = start.month - 1 + months
    year, month = start.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def occurrences(next_on: dt.date, interval: str, until: dt.date) -> list[dt.date]:
    """The dates a series charges from `next_on` through `until` (monthly on the same day, clamped)."""
    found, step = [], 0
    while True:
        if interval == WEEKLY:
            on = next_on + dt.timedelta(weeks=step)
        elif interval == YEARLY:
            on = _add_months(next_on, 12 * step)
        else:
            on = _add_months(next_on, step)
        if on > until:
            return found
        found.append(on)
        step += 1


def horizon(*, today: dt.date, income_dates: Iterable[dt.date], days: int | None = None) -> int:
    """How many days ahead to look: as asked (1..MAX_DAYS), else through the day after the next income."""
    if days is not None:
        return max(1, min(int(days), MAX_DAYS))
    upcoming = [on for on in income_dates if on > today]
    if not upcoming:
        return DEFAULT_DAYS
    return min((min(upcoming) - today).days + 1, MAX_DAYS)


def median_daily(totals: Sequence[int]) -> int:
    """The median of per-day spending (zero days included), rounded down."""
    if not totals:
        return 0
    ordered = sorted(totals)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) // 2


def _in_day_order(event: Event) -> tuple[int, str]:
    return -event.amount, event.label


def project(
    *,
    today: dt.date,
    start_balance: int,
    days: int,
    events: Iterable[Event],
    daily_spending: int,
    cushion: int = 0,
    spending_label: str = "spending",
) -> Forecast:
    tomorrow, last = today + dt.timedelta(days=1), today + dt.timedelta(days=days)
    by_day: dict[dt.date, list[Event]] = {}
    for event in events:
        if event.on <= last and event.amount:
            if event.on < tomorrow:
                event = dataclasses.replace(event, on=tomorrow)
            by_day.setdefault(event.on, []).append(event)
    rows = [Day(today, start_balance, ())]
    balance = start_balance
    for offset in range(1, days + 1):
        on = today + dt.timedelta(days=offset)
        todays = sorted(by_day[on], key=_in_day_order) if on in by_day else []
        if daily_spending:
            todays.append(Event(on, "spending", spending_label, -daily_spending))
        for event in todays:
            balance += event.amount
        rows.append(Day(on, balance, tuple(todays)))
    lowest = min(rows, key=lambda day: (day.balance, day.date))
    return Forecast(start_balance=start_balance, days=tuple(rows), lowest=lowest, cushion=cushion)


def floor_within(*, today: dt.date, start_balance: int, days: int, events: Iterable[Event], daily_spending: int) -> int:
    """A floor under every balance project() gives for today and the `days` days after it: today's balance less
    every outflow expected by the last of them and the typical spending of each day, no income counted. A
    balance there is today's plus the events up to its day less its days' spending, and leaving out income and
    taking every outflow of the window (overdue ones land inside it) can only lower it; when the floor is at or
    above the cushion, no day of the window falls short and the day-by-day projection has nothing to add."""
    last = today + dt.timedelta(days=days)
    outflows = sum(event.amount for event in events if event.amount < 0 and event.on <= last)
    return start_balance + outflows - max(daily_spending, 0) * days


def lowest_within(forecast: Forecast, days: int) -> Day:
    """The lowest day of the first `days` days after today (today included)."""
    window = forecast.days[: days + 1]
    return min(window, key=lambda day: (day.balance, day.date))


# The fewest days between two charges of a series: occurrences() steps a week, or (any other interval) a month
# or a year clamped to the month's length (from the 31st of January to the 28th of February is 28 days).
SHORTEST_WEEKLY_STEP, SHORTEST_OTHER_STEP = 7, 28


def charges_at_most(*, first_on: dt.date, interval: str, last: dt.date) -> int:
    """How many charges occurrences() can give from `first_on` (or any later start) through `last`: the watch
    bounds a batch's bills without listing them (plans/forecast_screen.py)."""
    if first_on > last:
        return 0
    step = SHORTEST_WEEKLY_STEP if interval == WEEKLY else SHORTEST_OTHER_STEP
    return (last - first_on).days // step + 1


def median_at_most(*, total: int, count: int) -> int:
    """A bound over median_daily() of `count` day totals, none below zero, that add up to at most `total`: the
    upper half of the days (count - count // 2 of them) are each at least the median, so together they are at
    least that many medians, and they are part of the total."""
    if count <= 0:
        return 0
    return max(total, 0) // (count - count // 2)

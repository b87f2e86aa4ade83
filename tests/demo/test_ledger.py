"""The demo ledger's facts hold whatever day it is generated on: a sweep over many "todays", no database."""

import datetime as dt
import functools
import statistics
from collections import Counter, defaultdict
from decimal import Decimal

import pytest

from demo import ledger as demo_ledger
from demo.ledger import BUDGETS
from suggestions.recurring.detection import MIN_OCCURRENCES

# Every third day over a year and a bit: all weekdays against all days of the month.
TODAYS = [dt.date(2026, 1, 1) + dt.timedelta(days=n) for n in range(0, 400, 3)]


ledger = functools.cache(demo_ledger.ledger)


def _weekly(entries, category, today) -> list[Decimal]:
    """The last 7 days, then the 12 seven-day windows before them."""
    return [
        sum(
            (e.amount for e in entries if e.category == category and 0 <= (today - e.occurred_on).days - 7 * k < 7),
            Decimal(0),
        )
        for k in range(13)
    ]


def _modified_z(entries, category, today) -> float:
    last, *before = _weekly(entries, category, today)
    median = statistics.median(before)
    mad = statistics.median([abs(v - median) for v in before])
    assert mad > 0, (category, today)
    return float(Decimal("0.6745") * (last - median) / mad)


@pytest.mark.parametrize("today", TODAYS, ids=str)
def test_only_shopping_spikes_in_the_last_week(today):
    entries = ledger(today)

    assert _modified_z(entries, "shopping", today) > 3.5
    for category in ("groceries", "dining", "transport", "entertainment"):
        assert _modified_z(entries, category, today) < 3.5, category


@pytest.mark.parametrize("today", TODAYS, ids=str)
def test_no_charge_repeats_within_a_day_but_the_planted_one(today):
    seen = defaultdict(list)
    for entry in ledger(today):
        seen[(entry.description, entry.amount)].append(entry.occurred_on)

    repeats = {
        key for key, days in seen.items() for i, a in enumerate(days) for b in days[i + 1 :] if abs((b - a).days) <= 1
    }
    assert repeats == {("CGV Cinemas", Decimal(240000))}


@pytest.mark.parametrize("today", TODAYS, ids=str)
def test_month_to_date_spend_never_reaches_80_percent_of_a_budget(today):
    month_to_date = defaultdict(Decimal)
    for entry in ledger(today):
        if entry.category in BUDGETS:
            month_to_date[(entry.category, entry.occurred_on.year, entry.occurred_on.month)] += entry.amount
            total = month_to_date[(entry.category, entry.occurred_on.year, entry.occurred_on.month)]
            assert total < Decimal("0.8") * BUDGETS[entry.category], (entry.category, entry.occurred_on)


@pytest.mark.parametrize("today", TODAYS, ids=str)
def test_every_synced_row_has_its_own_external_id(today):
    ids = [entry.external_id for entry in ledger(today) if entry.synced]

    assert len(ids) == len(set(ids))


def test_the_same_day_gives_the_same_ledger():
    assert demo_ledger.ledger(dt.date(2026, 11, 30)) == demo_ledger.ledger(dt.date(2026, 11, 30))


@pytest.mark.parametrize("today", TODAYS, ids=str)
def test_the_weekly_habits_keep_their_rhythm(today):
    entries = ledger(today)
    for category, low, high in (("groceries", 2, 2), ("dining", 5, 7), ("transport", 3, 4)):
        for k in range(12):
            count = sum(1 for e in entries if e.category == category and 0 <= (today - e.occurred_on).days - 7 * k < 7)
            assert low <= count <= high, (category, k, count)


@pytest.mark.parametrize("today", [dt.date(2026, 12, 1) + dt.timedelta(days=n) for n in range(31)], ids=str)
def test_each_monthly_charge_appears_three_times_whatever_the_day(today):
    """Three of each is what the recurring detection needs (suggestions/recurring/detection.py): the salary on
    the 5th is found on the 4th of a month too."""
    counts = Counter(e.slug for e in ledger(today))
    for slug in ("salary", "rent", "electricity", "water", "netflix", "spotify", "phone"):
        assert counts[slug] >= MIN_OCCURRENCES, slug

"""The recurring detection's SQL pre-filter (assets.selectors.transaction_charge_candidates) and its batch
writes: what the database drops can never be part of a series, and a batch costs the same queries whatever
its size."""

import datetime as dt
import random
import sys
import unicodedata
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assets.selectors import COMBINING_SCAN_END, transaction_charge_rows
from suggestions import recurring
from suggestions.duplicates import counterparty
from suggestions.models import RecurringSeries
from suggestions.recurring import add_months
from suggestions.selectors import recurring_candidates, user_batches
from suggestions.services import recurring_detect, recurring_detect_batch
from suggestions.thresholds import RECURRING_LOOKBACK_DAYS
from tests import factories
from tests.suggestions.factories import NOW, TODAY


def charge(user, on, amount, description, category="subscriptions", direction="expense"):
    factories.txn(user, amount=amount, description=description, category=category, direction=direction, occurred_on=on)


def detected(user) -> tuple[list, list]:
    """The series found from every row and from the pre-filtered rows, each as comparable tuples."""
    since = TODAY - dt.timedelta(days=RECURRING_LOOKBACK_DAYS)
    every = [recurring.Charge(*r) for r in transaction_charge_rows(user_ids=[user.id], since=since, until=TODAY)]
    kept = recurring_candidates(user_ids=[user.id], today=TODAY)
    assert {c.id for c in kept} <= {c.id for c in every}

    def key(series):
        return sorted(series, key=lambda s: (s.direction, s.currency, s.key))

    return key(recurring.detect(every)), key(recurring.detect(kept))


def test_true_series_survive_the_prefilter_and_give_the_same_result(alice):
    # Yearly, three charges just over two years.
    for k, on in enumerate([dt.date(2024, 11, 30), dt.date(2025, 12, 2), dt.date(2026, 12, 1)]):
        charge(alice, on, 1_200_000 + k * 10_000, "Google One", "subscriptions")
    # A price rise on the latest charge, and one earlier that held.
    for k, amount in enumerate([220_000, 220_000, 220_000, 260_000, 260_000, 260_000, 300_000]):
        charge(alice, add_months(dt.date(2026, 5, 12), k), amount, "Netflix")
    # A few days' slack around the weekend, with a reference number in every description.
    for k, day in enumerate([1, 4, 2, 1, 5]):
        charge(alice, dt.date(2026, 7 + k, day), 6_500_000, f"Landlord REF {8812 + k}", "housing")
    # The meter: amounts far apart (35 % for utilities), and accents the bank drops now and then.
    meter = [(560_000, "Tiền điện EVN"), (740_000, "TIEN DIEN EVN"), (610_000, "tiền điện evn")]
    for k, (amount, text) in enumerate(meter):
        charge(alice, add_months(dt.date(2026, 9, 10), k), amount, text, "utilities")
    # Salary with overtime (10 %), and a refund word on one line.
    for k, amount in enumerate([25_000_000, 26_500_000, 24_000_000]):
        charge(alice, add_months(dt.date(2026, 9, 5), k), amount, "ACME Corp", "salary", "income")
    charge(alice, dt.date(2026, 11, 7), 59_000, "Refund: Spotify")
    for k in range(4):
        charge(alice, add_months(dt.date(2026, 8, 20), k), 59_000, "SPOTIFY P0A1B2C3")
    # A weekly habit at one price, and bare transfers to two people (one series each).
    for k in range(6):
        charge(alice, TODAY - dt.timedelta(days=7 * k), 45_000, "Grab", "transport")
    for phone in ("0901234567", "0987654321"):
        for k in range(3):
            charge(alice, add_months(dt.date(2026, 9, 15), k), 2_000_000, f"CK {phone}", "family")
    # Everyday spending the database should mostly drop.
    rng = random.Random(7)
    for k in range(40):
        charge(alice, TODAY - dt.timedelta(days=k * 3), rng.randint(35, 400) * 1_000, "Co.op Mart", "groceries")

    every, kept = detected(alice)
    assert kept == every
    assert {s.key for s in kept} >= {"google one", "netflix", "landlord ref", "acme corp", "spotify", "grab"}
    assert {s.interval for s in kept} == {"weekly", "monthly", "yearly"}
    assert any(s.rose for s in kept)


def test_the_database_drops_merchants_without_three_alike_amounts(alice):
    rng = random.Random(3)
    for k in range(12):
        charge(alice, TODAY - dt.timedelta(days=k * 7), 100_000 * (k + 1) + rng.randint(0, 9_000), "Uniqlo", "shopping")
    for k in range(3):
        charge(alice, add_months(dt.date(2026, 9, 20), k), 59_000, "Spotify")
    kept = recurring_candidates(user_ids=[alice.id], today=TODAY)
    assert {c.description for c in kept} == {"Spotify"}


# Descriptions that name one counterparty in different ways: the SQL key must put them in one group.
SAME_COUNTERPARTY = [
    ["Netflix", "NETFLIX", "netflix 12345", "NETFLIX #0231"],
    ["Hoàn tiền Shopee", "Shopee", "SHOPEE REFUND", "Refund: shopee"],
    ["Điện lực", "Dien luc", "ĐIỆN LỰC 99", "dien-luc"],
    ["Cà phê Trung Nguyên", "ca phe trung nguyen", "CA PHE TRUNG NGUYEN 1A2B"],
    ["CK 0901234567", "ck 0901234567", "Chuyen tien 0901234567"],
    ["Phở \uff12\uff14", "Pho 24 ", "pho\u0301", "Pho"],  # full-width digits; a combining accent
    ["\uff2e\uff45\uff54\uff46\uff4c\uff49\uff58", "Netflix"],  # full-width letters
]


@pytest.mark.parametrize("names", SAME_COUNTERPARTY)
def test_descriptions_of_one_counterparty_are_kept_together(alice, names):
    by_counterparty: dict[str, list[str]] = {}
    for name in names:
        by_counterparty.setdefault(counterparty(name), []).append(name)
    for group in by_counterparty.values():
        # One charge per description (cycled to three), alike in amount: only kept if grouped together.
        for k in range(3):
            charge(alice, add_months(dt.date(2026, 9, 3), k), 100_000, group[k % len(group)])
    kept = recurring_candidates(user_ids=[alice.id], today=TODAY)
    assert {c.description for c in kept} == set(names) - {n for g in by_counterparty.values() for n in g[3:]}


def test_no_character_past_the_scan_has_a_combining_class():
    assert not any(unicodedata.combining(chr(c)) for c in range(COMBINING_SCAN_END, sys.maxunicode + 1))


def test_a_batch_costs_the_same_queries_whatever_its_size(db):
    """First run: the candidates, the stored series, one INSERT of the new series in a transaction (plans
    only when a bill is near: none here). Again: the two reads, nothing written."""

    def batch(n, prefix):
        users = [factories.user(f"{prefix}{k}") for k in range(n)]
        for user in users:
            for k in range(3):
                charge(user, add_months(dt.date(2026, 9, 20), k), 59_000, "Spotify")
                charge(user, add_months(dt.date(2026, 9, 21), k), 6_500_000, "Landlord", "housing")
        (users,) = list(user_batches(user_ids=[u.id for u in users]))
        with CaptureQueriesContext(connection) as first:
            created = recurring_detect_batch(users=users, now=NOW).created
        with CaptureQueriesContext(connection) as again:
            recurring_detect_batch(users=users, now=NOW)
        assert created == 2 * n
        return len(first), len(again)

    small, large = batch(2, "s"), batch(15, "l")
    assert small == large
    assert small[0] <= 6 and small[1] == 3  # and the SET LOCAL work_mem of the candidates


def test_changed_and_ended_series_are_written_in_one_update(alice, bob):
    for user in (alice, bob):
        for k in range(3):
            charge(user, add_months(dt.date(2026, 9, 20), k), 59_000, "Spotify")
    recurring_detect(now=NOW)
    assert set(RecurringSeries.objects.values_list("status", flat=True)) == {"active"}
    charge(alice, dt.date(2026, 12, 20), 59_000, "Spotify")  # alice's goes on; bob's stops
    later = NOW + dt.timedelta(days=30)
    with CaptureQueriesContext(connection) as ctx:
        result = recurring_detect(now=later)
    writes = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith(("UPDATE", "INSERT"))]
    assert len(writes) == 1 and writes[0].startswith("UPDATE")
    assert result.ended == 1
    alice_s, bob_s = (RecurringSeries.objects.get(user=u) for u in (alice, bob))
    assert (alice_s.status, alice_s.last_on, alice_s.occurrences) == ("active", dt.date(2026, 12, 20), 4)
    assert bob_s.status == "ended" and alice_s.updated_at > alice_s.created_at
    assert alice_s.amount == Decimal("59000.00")


def test_the_reviews_one_pass_read_equals_the_two_reads_it_replaced(alice, bob):
    """The weekly review's spending and biggest expenses, read in one pass (expense_week_review_read, keyed
    by review_spending), are what the two earlier queries returned (assets.selectors.expense_totals_by_week
    and largest_expenses): the week totals per user and currency are their categories' added up, and the
    categories are those that spent in the week, with that week's total."""
    from assets.selectors import expense_totals_by_week, expense_week_review_read, largest_expenses
    from suggestions.selectors import BigExpense, review_spending

    monday = dt.date(2026, 11, 23)
    rng = random.Random(5)
    for user in (alice, bob):
        for k in range(60):
            on = monday + dt.timedelta(days=6) - dt.timedelta(days=rng.randrange(45))
            category = rng.choice(["dining", "groceries", "transport"])
            amount = rng.choice([50_000, 120_000, 120_000, 300_000]) + rng.randrange(3) * 1_000
            currency = "USD" if k % 9 == 0 else "VND"
            factories.txn(
                user, amount=amount, category=category, occurred_on=on, description=f"shop {k}", currency=currency
            )
        factories.txn(user, amount=9_000_000, direction="income", category="salary", occurred_on=monday)
    factories.txn(bob, amount=70_000, category="shopping", occurred_on=monday - dt.timedelta(days=3))  # earlier only
    ids = [alice.id, bob.id]
    spending = review_spending(expense_week_review_read(user_ids=ids, week_start=monday, weeks=5).run(), per_user=3)
    zero = Decimal(0)
    weeks, categories = {}, {}
    for u, c, cat, *totals in expense_totals_by_week(user_ids=ids, week_start=monday, weeks=5):
        totals = [w or zero for w in totals]
        weeks[u, c] = [a + b for a, b in zip(weeks.get((u, c), [zero] * 5), totals, strict=True)]
        if totals[0]:
            categories.setdefault((u, c), []).append((cat, totals[0]))
    assert {key: list(totals) for key, totals in spending.weeks.items()} == weeks
    assert {key: sorted(cats) for key, cats in spending.categories.items()} == {
        key: sorted(cats) for key, cats in categories.items()
    }
    assert ("shopping", Decimal(70_000)) not in spending.categories[bob.id, "VND"]
    before = {}
    for row in largest_expenses(user_ids=ids, since=monday, until=monday + dt.timedelta(days=6), per_user=3):
        big = BigExpense(*row)
        before.setdefault((big.user_id, big.currency), []).append(big)  # largest first
    assert spending.biggest == before
    assert sum(len(rows) for rows in before.values()) > 6  # up to three per user and currency

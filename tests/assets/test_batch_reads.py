"""The nightly insights' batch reads of the ledger (assets.selectors; goals' budget rows): each is a plain
statement over the ids as one array. They must return what the rows say, to the Decimal's exponent
(as the ORM did), on ledgers of every shape: several currencies, both directions, amounts with cents and at
the column's limit, equal amounts in another currency or direction, rows on and just outside the window's and
the month's edges."""

import datetime as dt
import itertools
from decimal import Decimal

import pytest

from assets import selectors
from assets.models import Transaction
from goals.models import Budget
from goals.selectors import budget_rows
from tests import factories

TODAY = dt.date(2026, 12, 3)
WINDOWS = 13
SINCE = TODAY - dt.timedelta(days=7 * WINDOWS - 1)


def day(days_ago: int) -> dt.date:
    return TODAY - dt.timedelta(days=days_ago)


def exact(rows) -> list[tuple]:
    """Rows as their values' types and texts: equal Decimals with other exponents differ here."""
    return sorted(tuple((type(v).__name__, str(v)) for v in row) for row in rows)


@pytest.fixture
def ledgers(alice, bob):
    carol = factories.user("carol", currency="USD")
    rows = [
        # alice: VND, a double charge, a refund the next day, the same amount in USD, the window's edges
        (alice, "240000", "expense", "entertainment", "CGV Cinemas", day(2), "VND"),
        (alice, "240000", "expense", "entertainment", "CGV Cinemas", day(2), "VND"),
        (alice, "240000", "income", "other_income", "Refund CGV", day(1), "VND"),
        (alice, "240000", "expense", "entertainment", "CGV", day(30), "USD"),
        (alice, "85000", "expense", "dining", "Pho 24", SINCE, "VND"),
        (alice, "85000", "expense", "dining", "Pho 24", SINCE - dt.timedelta(days=1), "VND"),
        (alice, "85000", "expense", "dining", "Pho 24", TODAY + dt.timedelta(days=1), "VND"),
        (alice, "600000", "expense", "groceries", "Co.op Mart", TODAY.replace(day=1), "VND"),
        (alice, "610000", "expense", "groceries", "Co.op Mart", TODAY.replace(day=1) - dt.timedelta(days=1), "VND"),
        (alice, "25000000", "income", "salary", "ACME", day(28), "VND"),
        # bob: a run of three days, amounts a cent apart, the column's largest amount twice a day apart
        (bob, "55000", "expense", "dining", "Highlands", day(10), "VND"),
        (bob, "55000", "expense", "dining", "Highlands", day(11), "VND"),
        (bob, "55000", "expense", "dining", "Highlands", day(12), "VND"),
        (bob, "12.50", "expense", "dining", "Cafe", day(5), "VND"),
        (bob, "12.51", "expense", "dining", "Cafe", day(5), "VND"),
        (bob, "999999999999999.99", "expense", "housing", "Castle", day(40), "VND"),
        (bob, "999999999999999.99", "expense", "housing", "Castle", day(41), "VND"),
        # carol: USD with cents, equal amounts a week apart (not close) and on adjacent days
        (carol, "4.75", "expense", "dining", "Coffee", day(0), "USD"),
        (carol, "4.75", "expense", "dining", "Coffee", day(7), "USD"),
        (carol, "19.99", "expense", "subscriptions", "Stream", day(3), "USD"),
        (carol, "19.99", "expense", "subscriptions", "Stream", day(4), "USD"),
        (carol, "0.01", "income", "other_income", "Interest", day(60), "USD"),
    ]
    for owner, amount, direction, category, description, on, currency in rows:
        factories.txn(
            owner,
            amount=amount,
            direction=direction,
            category=category,
            description=description,
            occurred_on=on,
            currency=currency,
        )
    return [alice.id, bob.id, carol.id]


def window_rows(user_ids) -> list[Transaction]:
    return list(Transaction.objects.filter(user_id__in=user_ids, occurred_on__gte=SINCE, occurred_on__lte=TODAY))


def test_the_weekly_totals_are_the_sums_of_the_rows(ledgers):
    expected = {}
    for t in window_rows(ledgers):
        if t.direction != "expense":
            continue
        row = expected.setdefault((t.user_id, t.currency, t.category), [None, t.occurred_on] + [None] * WINDOWS)
        if t.occurred_on >= TODAY.replace(day=1):
            row[0] = t.amount if row[0] is None else row[0] + t.amount
        row[1] = min(row[1], t.occurred_on)
        k = 2 + (TODAY - t.occurred_on).days // 7
        row[k] = t.amount if row[k] is None else row[k] + t.amount
    plain = selectors.expense_weekly_totals(user_ids=ledgers, today=TODAY, windows=WINDOWS)
    assert len(plain) == 8
    assert exact(plain) == exact([(*key, *values) for key, values in expected.items()])


def test_the_close_repeats_are_the_amounts_seen_twice_within_a_day(ledgers):
    dates = {}
    for t in window_rows(ledgers):
        dates.setdefault((t.user_id, t.amount), []).append(t.occurred_on)
    expected = {
        key for key, days in dates.items() if any((b - a).days <= 1 for a, b in itertools.pairwise(sorted(days)))
    }
    plain = selectors.transaction_close_repeats(user_ids=ledgers, since=SINCE, until=TODAY)
    assert exact(plain) == exact(expected)
    alice, bob, carol = ledgers
    assert plain == {
        (alice, Decimal("240000")),
        (bob, Decimal("55000")),
        (bob, Decimal("999999999999999.99")),
        (carol, Decimal("19.99")),
    }


def as_row(t: Transaction) -> tuple:
    return tuple(getattr(t, field) for field in selectors.TRANSACTION_ROW)


def test_the_rows_of_pairs_are_only_the_pairs_rows(ledgers):
    alice, bob, carol = ledgers
    # bob's 12.50 and carol's 4.75 are amounts of these users, but not at these pairs
    pairs = {(alice, Decimal("240000")), (bob, Decimal("4.75")), (carol, Decimal("12.50")), (carol, Decimal("19.99"))}
    plain = selectors.transaction_rows_of_pairs(pairs=pairs, since=SINCE, until=TODAY)
    expected = sorted((as_row(t) for t in window_rows(ledgers) if (t.user_id, t.amount) in pairs), key=lambda r: r[:2])
    assert plain == expected
    assert exact(plain) == exact(expected)
    assert [(r[1], r[2], r[3], str(r[4])) for r in plain] == [
        (alice, "expense", "VND", "240000.00"),
        (alice, "expense", "VND", "240000.00"),
        (alice, "income", "VND", "240000.00"),
        (alice, "expense", "USD", "240000.00"),
        (carol, "expense", "USD", "19.99"),
        (carol, "expense", "USD", "19.99"),
    ]
    assert selectors.transaction_rows_of_pairs(pairs=set(), since=SINCE, until=TODAY) == []


def test_a_users_rows_are_their_rows_in_the_window(ledgers):
    plain = selectors.transaction_rows(user_ids=ledgers[:2], since=SINCE, until=TODAY)
    assert exact(plain) == exact(as_row(t) for t in window_rows(ledgers[:2]))
    assert len(plain) == 15


def test_the_budget_rows_are_the_orms(alice, bob):
    factories.budget(alice, category="dining", amount="5000000")
    factories.budget(bob, category="transport", amount="12.50", currency="USD")
    factories.budget(alice, category="groceries", amount="6000000")
    orm = Budget.objects.filter(user_id__in=[alice.id, bob.id]).order_by("id")
    fields = ("user_id", "category", "amount", "currency")
    plain = budget_rows(user_ids=[alice.id, bob.id])
    assert plain == list(orm.values_list(*fields))
    assert exact(plain) == exact(orm.values_list(*fields))

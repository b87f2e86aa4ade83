"""The nightly insights' batch reads (suggestions/insights/reads.py): they must return what the rows say, to
the Decimal's exponent, on ledgers of every shape: several currencies, both directions, amounts with cents and
at the column's limit, equal amounts in another currency or direction, rows on and just outside the window's
and the month's edges."""

import datetime as dt
import itertools
from decimal import Decimal

import pytest

from assets.models import Transaction
from goals.models import Budget
from suggestions.insights import reads
from suggestions.insights.reads import AmountKey
from tests import factories

pytestmark = pytest.mark.django_db
ROW = ("id", "user_id", "direction", "currency", "amount", "description", "occurred_on")

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
    read = reads.weekly_category_totals(user_ids=ledgers, today=TODAY)
    assert len(read) == 8
    zero = Decimal(0)
    got = [(r.user_id, r.currency, r.category, r.month_to_date, r.first_on, *r.weeks) for r in read]
    want = [(*key, values[0] if values[0] is not None else zero, *values[1:]) for key, values in expected.items()]
    assert exact(got) == exact(want)


def test_the_close_repeats_are_the_amounts_seen_twice_within_a_day(ledgers):
    dates = {}
    for t in window_rows(ledgers):
        dates.setdefault((t.user_id, t.amount), []).append(t.occurred_on)
    expected = {
        key for key, days in dates.items() if any((b - a).days <= 1 for a, b in itertools.pairwise(sorted(days)))
    }
    read = reads.close_repeats(user_ids=ledgers, today=TODAY)
    assert exact((k.user_id, k.amount) for k in read) == exact(expected)
    alice, bob, carol = ledgers
    assert read == {
        AmountKey(alice, Decimal("240000")),
        AmountKey(bob, Decimal("55000")),
        AmountKey(bob, Decimal("999999999999999.99")),
        AmountKey(carol, Decimal("19.99")),
    }


def as_row(t: Transaction) -> tuple:
    return tuple(getattr(t, field) for field in ROW)


def as_tuple(row) -> tuple:
    return tuple(getattr(row, field) for field in ROW)


def test_the_rows_of_pairs_are_only_the_pairs_rows(ledgers):
    alice, bob, carol = ledgers
    # bob's 12.50 and carol's 4.75 are amounts of these users, but not at these pairs
    pairs = {(alice, Decimal("240000")), (bob, Decimal("4.75")), (carol, Decimal("12.50")), (carol, Decimal("19.99"))}
    read = reads.rows_with_amounts(candidates={AmountKey(*pair) for pair in pairs}, today=TODAY)
    plain = [as_tuple(row) for row in read]
    expected = sorted((as_row(t) for t in window_rows(ledgers) if (t.user_id, t.amount) in pairs), key=lambda r: r[:2])
    assert plain == expected
    assert exact(plain) == exact(expected)
    # As the column holds them: four places (numeric(19, 4)), quantized to the currency where they are shown.
    assert [(r[1], r[2], r[3], str(r[4])) for r in plain] == [
        (alice, "expense", "VND", "240000.0000"),
        (alice, "expense", "VND", "240000.0000"),
        (alice, "income", "VND", "240000.0000"),
        (alice, "expense", "USD", "240000.0000"),
        (carol, "expense", "USD", "19.9900"),
        (carol, "expense", "USD", "19.9900"),
    ]
    assert reads.rows_with_amounts(candidates=set(), today=TODAY) == []


def test_a_users_rows_are_their_rows_in_the_window(ledgers):
    plain = [as_tuple(row) for row in reads.lookback_rows(user_ids=set(ledgers[:2]), today=TODAY)]
    assert exact(plain) == exact(as_row(t) for t in window_rows(ledgers[:2]))
    assert len(plain) == 15


def test_the_budgets_are_every_budget_of_the_users(alice, bob):
    factories.budget(alice, category="dining", amount="5000000")
    factories.budget(bob, category="transport", amount="12.50", currency="USD")
    factories.budget(alice, category="groceries", amount="6000000")
    orm = Budget.objects.filter(user_id__in=[alice.id, bob.id]).order_by("id")
    fields = ("user_id", "category", "amount", "currency")
    plain = [(b.user_id, b.category, b.amount, b.currency) for b in reads.budgets_of(user_ids=[alice.id, bob.id])]
    assert plain == list(orm.values_list(*fields))
    assert exact(plain) == exact(orm.values_list(*fields))

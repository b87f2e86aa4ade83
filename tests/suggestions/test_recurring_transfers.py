"""A monthly savings deposit is a recurring transfer, never a subscription (docs/recurring.md)."""

import datetime as dt

import pytest

from assets.ledger.models import Transfer
from assets.models import Transaction
from plans.recurring import bills_still_due
from suggestions.models import RecurringSeries
from suggestions.recurring.detection import detect
from suggestions.recurring.reads import recurring_rows
from tests import factories

pytestmark = pytest.mark.django_db


def _deposits(user, *, paired: bool):
    bank = factories.asset(user, name="Vietcombank", kind="bank_account")
    savings = factories.asset(user, name="Savings book", kind="savings")
    for month in (8, 9, 10, 11):
        day = dt.date(2026, month, 5)
        out = factories.txn(
            user, amount="3000000", category="other", description="Chuyen tien tiet kiem", occurred_on=day, asset=bank
        )
        inc = factories.txn(
            user,
            amount="3000000",
            direction="income",
            category="other_income",
            description="Nhan tien tiet kiem",
            occurred_on=day,
            asset=savings,
        )
        if paired:
            transfer = Transfer.objects.create(user=user, outgoing=out, incoming=inc, status=Transfer.Status.PAIRED)
            Transaction.objects.filter(id__in=[out.id, inc.id]).update(transfer=transfer)


def test_a_monthly_savings_deposit_is_a_transfer_series(alice):
    _deposits(alice, paired=True)
    found = detect(recurring_rows(today_of={alice.id: dt.date(2026, 11, 20)}))
    assert {(s.direction, s.kind) for s in found} == {("expense", "transfer"), ("income", "transfer")}


def test_the_same_rows_unpaired_are_a_subscription_and_income(alice):
    _deposits(alice, paired=False)
    found = detect(recurring_rows(today_of={alice.id: dt.date(2026, 11, 20)}))
    assert {(s.direction, s.kind) for s in found} == {("expense", "subscription"), ("income", "income")}


def test_excluded_rows_make_no_series(alice):
    _deposits(alice, paired=False)
    Transaction.objects.filter(user=alice).update(excluded=True)
    assert detect(recurring_rows(today_of={alice.id: dt.date(2026, 11, 20)})) == []


def test_a_transfer_series_is_no_bill_still_due(alice):
    RecurringSeries.objects.create(
        user=alice, key="tiet kiem", direction="expense", merchant="Chuyen tien tiet kiem", kind="transfer",
        amount=3000000, currency="VND", interval="monthly", last_on=dt.date(2026, 10, 25),
        next_on=dt.date(2026, 11, 25), category="other", occurrences=4,
    )  # fmt: skip
    bills = bills_still_due(user=alice, currency="VND", today=dt.date(2026, 11, 20), month_last=dt.date(2026, 11, 30))
    assert bills == []

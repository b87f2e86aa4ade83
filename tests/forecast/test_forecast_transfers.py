"""Money moved between one's own accounts moves nothing in the forecast (issue 30, docs/ledger.md): a paired
transfer is no typical spending, and a recurring transfer (a monthly savings deposit) is no bill, neither on
the chart nor for the shortfall watch."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.ledger.transfers import transfer_create
from plans.forecast_jobs import shortfall_watch_run
from suggestions.models import RecurringSeries
from tests import factories
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


@pytest.fixture
def saver(alice):
    """3,000,000 in the bank and 200,000 cash; a 500,000 move from the bank to the cash wallet each of the last
    20 days, each paired as a transfer; and a 5,000,000 monthly savings deposit due in two days."""
    today = user_today(alice)
    bank = factories.asset(alice, name="VCB", kind="bank_account", balance="3000000")
    cash = factories.asset(alice, name="Ví", kind="cash", balance="200000")
    for back in range(1, 21):
        day = today - dt.timedelta(days=back)
        out = factories.txn(alice, amount="500000", occurred_on=day, asset=bank, category="other")
        inc = factories.txn(alice, amount="500000", direction="income", occurred_on=day, asset=cash)
        transfer_create(user=alice, out_id=out.id, in_id=inc.id)
    RecurringSeries.objects.create(
        user=alice,
        key="tiet kiem",
        direction="expense",
        merchant="Tiết kiệm",
        kind=RecurringSeries.Kind.TRANSFER,
        amount=Decimal(5000000),
        currency="VND",
        interval="monthly",
        last_on=today - dt.timedelta(days=28),
        next_on=today + dt.timedelta(days=2),
        category="savings",
        occurrences=4,
    )
    return alice


def test_the_forecast_moves_nothing_for_ones_own_transfers(saver, alice_api):
    body = alice_api.get("/api/v1/forecast?days=7").json()
    assert body["start_balance"] == "3200000"
    # No typical spending (every row of the 90 days is a transfer), and the deposit is no event.
    assert [day["balance"] for day in body["days"]] == ["3200000"] * 8
    assert [event for day in body["days"] for event in day["events"]] == []
    assert body["shortfall"] is False


def test_the_watch_sends_no_shortfall_for_a_savings_deposit(saver):
    today = user_today(saver)
    noon = dt.datetime.combine(today, dt.time(12, 0), tzinfo=saver.profile.tz)
    assert shortfall_watch_run(now=noon, user_id_range=(saver.id, saver.id)) == 0
    assert not saver.notifications.filter(kind="cash_shortfall").exists()

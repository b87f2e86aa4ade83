"""The forecast pays a card with a statement cycle on its due dates, and one without today (CONTRACT §9.1)."""

import datetime as dt

import pytest

from assets.cards import cycle
from tests import factories
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def test_a_cards_amount_due_falls_on_its_due_date_and_the_rest_on_the_next(alice_api, alice):
    today = user_today(alice)
    statement_day = min((today - dt.timedelta(days=10)).day, 28)
    due_day = min((today + dt.timedelta(days=3)).day, 28)
    factories.asset(alice, name="VCB", kind="bank_account", balance="10000000")
    card = factories.asset(
        alice, name="VIB card", kind="credit_card", balance="3000000", statement_day=statement_day, due_day=due_day
    )
    factories.asset(alice, name="Old card", kind="credit_card", balance="500000")  # no cycle: owed today
    statement_on = cycle.last_statement_on(today, statement_day)
    factories.txn(alice, amount="1000000", occurred_on=statement_on + dt.timedelta(days=1), asset=card)
    due_on = cycle.due_after(statement_on, due_day)
    next_due_on = cycle.due_after(cycle.next_statement_on(statement_on, statement_day), due_day)

    body = alice_api.get("/api/v1/forecast?days=90").json()
    assert body["start_balance"] == "9500000"
    events = {
        (day["date"], event["label"]): event["amount"]
        for day in body["days"]
        for event in day["events"]
        if event["kind"] == "card"
    }
    paid_on = max(due_on, today + dt.timedelta(days=1))  # an overdue amount falls on tomorrow
    assert events == {
        (paid_on.isoformat(), "VIB card: amount due"): "-2000000",
        (next_due_on.isoformat(), "VIB card: next statement"): "-1000000",
    }
    assert body["days"][-1]["balance"] == "6500000"


def test_a_card_paid_off_since_its_statement_adds_no_due(alice_api, alice):
    today = user_today(alice)
    statement_day = min((today - dt.timedelta(days=2)).day, 28)
    factories.asset(alice, name="VCB", kind="bank_account", balance="1000000")
    card = factories.asset(
        alice, name="Card", kind="credit_card", balance="0", statement_day=statement_day, due_day=statement_day
    )
    statement_on = cycle.last_statement_on(today, statement_day)
    factories.txn(
        alice, amount="700000", direction="income", occurred_on=statement_on + dt.timedelta(days=1), asset=card
    )
    body = alice_api.get("/api/v1/forecast?days=40").json()
    assert not [e for day in body["days"] for e in day["events"] if e["kind"] == "card"]
    assert body["lowest"]["balance"] == "1000000"

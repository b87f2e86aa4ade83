"""A card's cycle on /wallets (set and shown), on /debts, and its reminder before the due date."""

import datetime as dt

import pytest

from assets.models import Asset
from goals.debts import reminders
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_web(client, alice):
    client.force_login(alice)
    return client


NOW = dt.datetime(2026, 12, 3, 2, 0, tzinfo=dt.UTC)  # 09:00 on 3 December in Ho Chi Minh City


def test_a_card_is_due_a_reminder_once_before_its_due_date(alice, bob):
    # Statement on the 25th, due on the 5th: 25 November's bill is due on 5 December, within three days.
    factories.asset(alice, name="VIB", kind="credit_card", balance="2000000", statement_day=25, due_day=5)
    factories.asset(alice, name="Later", kind="credit_card", balance="900000", statement_day=25, due_day=20)
    paid = factories.asset(bob, name="Paid", kind="credit_card", balance="0", statement_day=25, due_day=5)
    factories.txn(bob, amount="700000", direction="income", occurred_on=dt.date(2026, 11, 28), asset=paid)
    span = (alice.id, bob.id) if alice.id < bob.id else (bob.id, alice.id)
    assert reminders.debt_reminders_send(now=NOW, user_id_range=span) == 1
    assert reminders.debt_reminders_send(now=NOW, user_id_range=span) == 0
    (notice,) = alice.notifications.filter(kind="debt_reminder")
    assert "VIB" in notice.title and "05/12" in notice.title and "2,000,000" in notice.title
    assert not bob.notifications.exists()


def test_wallets_sets_a_cards_days_and_shows_what_is_due(alice, alice_web):
    response = alice_web.post(
        "/wallets",
        {"name": "VIB", "kind": "credit_card", "balance": "3tr", "currency": "VND", "statement_day": "20",
         "due_day": "5"},
    )  # fmt: skip
    assert response.status_code == 302
    card = Asset.objects.get(user=alice, name="VIB")
    assert (card.statement_day, card.due_day) == (20, 5)
    html = alice_web.get("/wallets").content.decode()
    assert "Due ₫3,000,000 by" in html and 'name="statement_day"' in html
    alice_web.post(
        f"/wallets/{card.id}/edit", {"name": "VIB", "kind": "credit_card", "statement_day": "15", "due_day": "1"}
    )
    card.refresh_from_db()
    assert (card.statement_day, card.due_day) == (15, 1)
    alice_web.post(
        f"/wallets/{card.id}/edit", {"name": "VIB", "kind": "credit_card", "statement_day": "40", "due_day": "1"}
    )
    card.refresh_from_db()
    assert card.statement_day == 15  # refused, unchanged


def test_a_cash_wallet_cannot_take_card_days(alice, alice_web):
    alice_web.post("/wallets", {"name": "Cash", "kind": "cash", "statement_day": "20", "due_day": "5"})
    assert not Asset.objects.filter(user=alice, name="Cash").exists()
    alice_web.post("/wallets", {"name": "Cash", "kind": "cash", "statement_day": "", "due_day": ""})
    assert Asset.objects.get(user=alice, name="Cash").statement_day is None


def test_debts_lists_the_cards_in_vietnamese(client):
    user = factories.user("vy", language="vi")
    factories.asset(user, name="Thẻ VIB", kind="credit_card", balance="1500000", statement_day=20, due_day=5)
    client.force_login(user)
    html = client.get("/debts").content.decode()
    assert "Thẻ VIB" in html and 'id="cards"' in html and "1.500.000" in html

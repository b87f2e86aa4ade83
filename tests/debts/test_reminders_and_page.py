import datetime as dt

import pytest

from goals.debts import reminders
from goals.debts.services import debt_create
from goals.tasks import send_debt_reminders
from tests import factories
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 12, 3, 2, 0, tzinfo=dt.UTC)  # 09:00 on 3 Dec in Ho Chi Minh City


def test_a_reminder_goes_once_before_the_due_date(alice):
    debt_create(
        user=alice,
        direction="i_owe",
        counterparty="Lan",
        principal="2000000",
        opened_on="2026-12-01",
        due_on="2026-12-05",
    )
    debt_create(
        user=alice,
        direction="i_owe",
        counterparty="Far",
        principal="100000",
        opened_on="2026-12-01",
        due_on="2026-12-25",
    )
    span = (alice.id, alice.id)
    assert reminders.debt_reminders_send(now=NOW, user_id_range=span) == 1
    assert reminders.debt_reminders_send(now=NOW, user_id_range=span) == 0
    (notice,) = alice.notifications.filter(kind="debt_reminder")
    assert "Lan" in notice.title and "05/12" in notice.title


def test_the_beat_task_runs_the_batches(alice, bob):
    tomorrow = user_today(bob) + dt.timedelta(days=1)
    debt_create(user=bob, direction="owed_to_me", counterparty="Khoa", principal="300000", due_on=tomorrow)
    send_debt_reminders.apply()  # eager: the batches run here
    send_debt_reminders.apply()
    assert bob.notifications.filter(kind="debt_reminder").count() == 1
    assert not alice.notifications.exists()


def test_the_page_lists_both_sides_in_vietnamese(client):
    user = factories.user("vy", language="vi")
    debt_create(user=user, direction="owed_to_me", counterparty="Minh", principal="500000")
    debt_create(user=user, direction="i_owe", counterparty="Ngân hàng", principal="10000000")
    client.force_login(user)
    for url in ("/debts", "/debts/"):
        page = client.get(url)
        assert page.status_code == 200
    html = page.content.decode()
    assert "Minh" in html and "Ngân hàng" in html
    assert "Nợ" in html


def test_the_page_creates_and_records_a_payment(client, alice):
    client.force_login(alice)
    response = client.post(
        "/debts",
        {
            "new-direction": "owed_to_me",
            "new-counterparty": "Tú",
            "new-principal": "1tr",
            "new-interest_method": "flat",
        },
    )
    assert response.status_code == 302
    debt = alice.debts.get()
    paid = client.post(f"/debts/{debt.id}/pay", {f"p{debt.id}-amount": "400k"})
    assert paid.status_code == 302
    assert debt.payments.get().amount == 400000
    too_much = client.post(f"/debts/{debt.id}/pay", {f"p{debt.id}-amount": "700k"})
    assert too_much.status_code == 400
    assert debt.payments.count() == 1


def test_the_page_draws_the_vietqr(client, alice):
    client.force_login(alice)
    debt = debt_create(user=alice, direction="owed_to_me", counterparty="Tú", principal="250000")
    account = factories.asset(alice, kind="bank_account", bank_bin="970436", account_number="0071000012345")
    page = client.get(f"/debts?qr={debt.id}&account={account.id}")
    assert "<svg" in page.content.decode() and debt.purpose in page.content.decode()


def test_the_reminder_counts_the_days_in_the_users_own_timezone():
    # 18:00 UTC on 1 Dec: already 2 Dec in Hanoi (the 5th is 3 days off), still 1 Dec in Los Angeles (4 days).
    evening_utc = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
    hanoi = factories.user("hanoi", timezone="Asia/Ho_Chi_Minh")
    los_angeles = factories.user("la", timezone="America/Los_Angeles")
    for user in (hanoi, los_angeles):
        debt_create(
            user=user, direction="i_owe", counterparty="Lan", principal="500000", opened_on="2026-11-01",
            due_on="2026-12-05",
        )  # fmt: skip
    users = sorted((hanoi.id, los_angeles.id))
    assert reminders.debt_reminders_send(now=evening_utc, user_id_range=(users[0], users[1])) == 1
    assert hanoi.notifications.filter(kind="debt_reminder").count() == 1
    assert not los_angeles.notifications.exists()
    # Los Angeles reaches 2 Dec at 08:00 UTC on the 2nd; Hanoi is not reminded again.
    morning_after = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)
    assert reminders.debt_reminders_send(now=morning_after, user_id_range=(users[0], users[1])) == 1
    assert los_angeles.notifications.filter(kind="debt_reminder").count() == 1


def test_an_overdue_instalment_does_not_hide_the_next_one_falling_due(alice):
    # Instalments on 1 Nov, 1 Dec and 1 Jan; none paid. On 29 Dec the one of 1 Jan is 3 days off: it is reminded
    # though the earlier ones are still unpaid (the reminder looked only at the earliest unpaid one, overdue).
    debt_create(
        user=alice, direction="i_owe", counterparty="Lan", principal="3000000", opened_on="2026-10-15",
        installments=3, first_due_on="2026-11-01",
    )  # fmt: skip
    late_december = dt.datetime(2026, 12, 29, 2, 0, tzinfo=dt.UTC)
    assert reminders.debt_reminders_send(now=late_december, user_id_range=(alice.id, alice.id)) == 1
    (notice,) = alice.notifications.filter(kind="debt_reminder")
    assert notice.facts["date"] == "2027-01-01" and notice.facts["amount"] == "1000000"
    assert reminders.debt_reminders_send(now=late_december, user_id_range=(alice.id, alice.id)) == 0

"""A user whose erasure is pending is locked: no debt or card reminder reaches them, until the erasure is
cancelled (zeus/account_data/unlocked.py)."""

import datetime as dt

import pytest

from goals.debts import reminders
from goals.debts.services import debt_create
from tests import factories
from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 12, 3, 2, 0, tzinfo=dt.UTC)  # 09:00 on 3 December in Ho Chi Minh City


def test_no_debt_or_card_reminder_for_a_locked_user_until_the_erasure_is_cancelled(alice, bob):
    for owner in (alice, bob):
        debt_create(
            user=owner,
            direction="i_owe",
            counterparty="Lan",
            principal="2000000",
            opened_on="2026-12-01",
            due_on="2026-12-05",
        )
        # Statement on the 25th, due on the 5th: 25 November's bill is due on 5 December, within three days.
        factories.asset(owner, name="VIB", kind="credit_card", balance="2000000", statement_day=25, due_day=5)
    account_erasure_request(user=bob, now=NOW)
    span = (min(alice.id, bob.id), max(alice.id, bob.id))
    assert reminders.debt_reminders_send(now=NOW, user_id_range=span) == 2
    assert alice.notifications.filter(kind="debt_reminder").count() == 2
    assert not bob.notifications.exists()
    account_erasure_cancel(user=bob)
    assert reminders.debt_reminders_send(now=NOW, user_id_range=span) == 2
    titles = sorted(bob.notifications.filter(kind="debt_reminder").values_list("title", flat=True))
    assert len(titles) == 2 and any("VIB" in t for t in titles) and any("Lan" in t for t in titles)

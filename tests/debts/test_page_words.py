"""/debts as a Vietnamese user reads it: each side's total never adds two currencies at 1:1, and a refusal
(a payment above what is owed, terms that do not hold, a VietQR without an account) reads in Vietnamese."""

import datetime as dt
import re

import pytest
from django.utils import translation

from goals.debts.selectors import debt_get
from goals.debts.services import debt_create
from tests import factories
from zeus.errors import NotFound
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


@pytest.fixture
def vy(client):
    user = factories.user("vy", language="vi")
    client.force_login(user)
    return user


def heading(html: str, direction: str) -> str:
    return re.search(rf'<h2 id="{direction}-title">(.*?)</h2>', html, re.S).group(1)


def test_each_sides_total_keeps_its_currencies_apart(client, vy):
    debt_create(user=vy, direction="owed_to_me", counterparty="Minh", principal="500000")
    debt_create(user=vy, direction="owed_to_me", counterparty="Tom", principal="100", currency="USD")
    debt_create(user=vy, direction="i_owe", counterparty="Lan", principal="2000000")
    html = client.get("/debts").content.decode()
    owed = heading(html, "owed_to_me")
    assert "500.100" not in owed  # 500,000 đồng and 100 dollars are not 500,100 of anything
    assert "500.000" in owed and "100" in owed.replace("500.000", "") and "US$" in owed
    assert "2.000.000" in heading(html, "i_owe") and "US$" not in heading(html, "i_owe")


def test_a_payment_above_what_is_owed_is_refused_in_vietnamese(client, vy):
    debt = debt_create(user=vy, direction="owed_to_me", counterparty="Tú", principal="1000000")
    refused = client.post(f"/debts/{debt.id}/pay", {f"p{debt.id}-amount": "2tr"})
    assert refused.status_code == 400
    assert "At most" not in refused.content.decode()
    assert "Tối đa" in refused.content.decode()
    assert not debt.payments.exists()


def test_a_payment_dated_after_today_is_refused_in_vietnamese(client, vy):
    debt = debt_create(user=vy, direction="owed_to_me", counterparty="Tú", principal="1000000")
    tomorrow = user_today(vy) + dt.timedelta(days=1)
    refused = client.post(
        f"/debts/{debt.id}/pay", {f"p{debt.id}-amount": "100k", f"p{debt.id}-paid_on": tomorrow.isoformat()}
    )
    assert refused.status_code == 400
    assert "Khoản trả không thể có ngày sau hôm nay." in refused.content.decode()
    assert not debt.payments.exists()


def test_terms_that_do_not_hold_are_refused_in_vietnamese(client, vy):
    refused = client.post(
        "/debts",
        {
            "new-direction": "i_owe",
            "new-counterparty": "Ngân hàng",
            "new-principal": "10tr",
            "new-interest_method": "flat",
            "new-installments": "12",
        },
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Instalments need the first due date." not in html
    assert "ngày đến hạn đầu tiên" in html
    assert not vy.debts.exists()


def test_a_vietqr_without_an_account_says_why_in_vietnamese(client, vy):
    debt = debt_create(user=vy, direction="owed_to_me", counterparty="Tú", principal="250000")
    html = client.get(f"/debts?qr={debt.id}").content.decode()
    assert "Choose the bank account" not in html
    assert "Chọn tài khoản ngân hàng" in html


def test_a_debt_that_is_not_there_is_named_in_the_readers_language(vy):
    with translation.override("vi"), pytest.raises(NotFound) as caught:
        debt_get(user=vy, debt_id=999999)
    assert caught.value.message == "Không có khoản nợ này."

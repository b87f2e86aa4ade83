"""/debts as a Vietnamese user reads it: each side's total never adds two currencies at 1:1, and a refusal
(a payment above what is owed, terms that do not hold, a VietQR without an account) reads in Vietnamese."""

import re

import pytest

from goals.debts.services import debt_create
from tests import factories

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

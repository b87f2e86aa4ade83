"""Numbers and dates bounded by what their columns hold and what can have happened: a 19-digit balance in a
bank text, a bank text or a REST transaction dated 2099."""

import csv
import datetime as dt
import io

import pytest

from assets.models import BankTextDraft, Transaction
from tests import factories
from zeus.spreadsheets import formula_safe
from zeus.timeutil import LEDGER_HORIZON

VCB = "So du TK VCB 0123456789 -150,000 VND luc {date} 10:15. So du {balance} VND. Ref KFC NGUYEN HUE"


@pytest.fixture(autouse=True)
def no_model(settings):
    settings.ANTHROPIC_API_KEY = ""


def bank_text(api, *, date="01-11-2026", balance="2,345,000"):
    return api.post("/api/v1/bank-texts", {"text": VCB.format(date=date, balance=balance)}, format="json")


@pytest.mark.django_db
def test_a_readable_bank_text_still_drafts(alice_api):
    response = bank_text(alice_api)
    assert response.status_code == 201, response.content
    assert response.json()["balance_after"] == "2345000"


@pytest.mark.django_db
@pytest.mark.parametrize("balance", ["1234567890123456789", "9,999,999,999,999,999,999"])
def test_a_balance_no_account_holds_is_dropped_not_stored(alice_api, balance):
    """The rule reader leaves out a balance the ledger's column cannot hold (assets/banktexts/fields.py): the
    draft keeps the transaction, never an overflow (once a 500)."""
    response = bank_text(alice_api, balance=balance)
    assert response.status_code == 201, response.content
    assert response.json()["balance_after"] is None
    assert BankTextDraft.objects.get().balance_after is None


@pytest.mark.django_db
def test_a_bank_text_dated_2099_is_refused(alice_api):
    """A date in the future is no date a bank reports: the reader finds none, so the text is not drafted."""
    response = bank_text(alice_api, date="01-11-2099")
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == "BANK_TEXT_UNREADABLE"
    assert not BankTextDraft.objects.exists()


@pytest.mark.django_db
def test_a_rest_transaction_dated_2099_is_a_400_and_a_year_ahead_is_not(alice_api):
    body = {"amount": "5000", "direction": "expense", "category": "dining"}
    for date in ("2099-01-01", "1899-12-31"):
        response = alice_api.post("/api/v1/transactions", {**body, "occurred_on": date}, format="json")
        assert response.status_code == 400, response.content
        assert response.json()["error"]["code"] == "DATE_OUT_OF_RANGE"
    assert not Transaction.objects.exists()
    soon = (dt.date.today() + LEDGER_HORIZON - dt.timedelta(days=2)).isoformat()
    created = alice_api.post("/api/v1/transactions", {**body, "occurred_on": soon}, format="json")
    assert created.status_code == 201, created.content
    moved = alice_api.patch(
        f"/api/v1/transactions/{created.json()['id']}", {"occurred_on": "2099-01-01"}, format="json"
    )
    assert moved.status_code == 400
    assert Transaction.objects.get().occurred_on.isoformat() == soon


@pytest.mark.django_db
def test_every_exported_csv_column_is_formula_safe(alice, client):
    client.force_login(alice)
    for i, start in enumerate(("=", "+", "-", "@")):
        factories.txn(
            alice,
            description=f"{start}HYPERLINK(1)",
            external_id=f"{start}cmd|' /C calc'!A{i}",
            source="synced",
            category="dining",
        )
    body = b"".join(client.get("/transactions.csv").streaming_content).decode()
    cells = [cell for line in list(csv.reader(io.StringIO(body)))[1:] for cell in line]
    assert cells and not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]
    assert "'=HYPERLINK(1)" in cells and "'@cmd|' /C calc'!A3" in cells


def test_formula_safe_quotes_each_formula_start():
    assert [formula_safe(v) for v in ("=1", "+1", "-1", "@a", "\t=1", "ok", None, 5)] == [
        "'=1", "'+1", "'-1", "'@a", "'\t=1", "ok", "", "5"
    ]  # fmt: skip

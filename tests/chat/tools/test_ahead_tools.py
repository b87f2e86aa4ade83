"""The looking-ahead tools (chat/tools/ahead.py): budgets set, changed and deleted (replay-safe, the delete
confirmed), debts recorded and listed, payments, the VietQR, today's plan and the forecast, with their cards."""

import datetime as dt

import pytest

from goals.debts.models import Debt, DebtPayment
from goals.models import Budget
from tests import factories
from tests.chat.tools.helpers import call, decide
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db(transaction=True)


def test_create_budget_with_shorthand_and_replay_adds_nothing(alice, alice_ctx):
    first = call(alice_ctx, "create_budget", {"category": "dining", "amount": "3 triệu"}, call_id="toolu_b1")
    assert not first.is_error
    assert first.output["budget"]["amount"] == "3000000"
    assert first.card["kind"] == "result_summary" and first.card["status"] == "created"
    again = call(alice_ctx, "create_budget", {"category": "dining", "amount": "3 triệu"}, call_id="toolu_b1")
    assert again.output == first.output
    assert Budget.objects.filter(user=alice).count() == 1


def test_update_budget(alice, alice_ctx):
    budget = factories.budget(alice, category="dining", amount="2000000")
    result = call(alice_ctx, "update_budget", {"budget_id": budget.id, "amount": "2.5tr"})
    assert result.output["budget"]["amount"] == "2500000"


def test_delete_budget_asks_first_and_deletes_once_approved(alice, alice_ctx):
    budget = factories.budget(alice, category="shopping")
    asked = call(alice_ctx, "delete_budget", {"budget_id": budget.id})
    assert asked.output["status"] == "confirmation_required"
    assert asked.card["kind"] == "confirm" and "budget" in asked.card["title"].lower()
    assert Budget.objects.filter(id=budget.id).exists()
    done = decide(alice_ctx, asked.output["approval_id"], "approve")
    assert done.output["deleted"] is True
    assert not Budget.objects.filter(id=budget.id).exists()


def test_another_users_budget_is_not_found(alice_ctx, bob):
    budget = factories.budget(bob)
    assert (
        call(alice_ctx, "update_budget", {"budget_id": budget.id, "amount": "1"}).output["error"]["code"] == "NOT_FOUND"
    )
    assert call(alice_ctx, "delete_budget", {"budget_id": budget.id}).output["error"]["code"] == "NOT_FOUND"


def test_create_debt_then_list_who_owes_me(alice, alice_ctx):
    created = call(
        alice_ctx,
        "create_debt",
        {
            "direction": "owed_to_me",
            "counterparty": "Minh",
            "principal": "2tr",
            "due_on": "2027-01-15",
            "interest_rate": 10,
        },
        call_id="toolu_d1",
    )
    assert created.output["debt"]["interest_rate"] == "10"  # a plain decimal, never "1E+1"
    assert created.output["debt"]["principal"] == "2000000"
    assert created.card["kind"] == "debt"
    call(
        alice_ctx,
        "create_debt",
        {"direction": "owed_to_me", "counterparty": "Minh", "principal": "2tr"},
        call_id="toolu_d1",
    )
    assert Debt.objects.filter(user=alice).count() == 1
    listed = call(alice_ctx, "list_debts", {"direction": "owed_to_me"})
    assert [d["counterparty"] for d in listed.output["debts"]] == ["Minh"]
    outstanding = listed.output["debts"][0]["outstanding"]
    assert listed.output["totals"] == [{"direction": "owed_to_me", "currency": "VND", "outstanding": outstanding}]
    assert listed.card["kind"] == "debt" and listed.card["items"][0]["counterparty"] == "Minh"


def test_record_debt_payment_and_refuse_overpayment(alice, alice_ctx):
    debt = call(alice_ctx, "create_debt", {"direction": "i_owe", "counterparty": "Lan", "principal": "1tr"}).output[
        "debt"
    ]
    paid = call(alice_ctx, "record_debt_payment", {"debt_id": debt["id"], "amount": "400k"})
    assert paid.output["debt"]["outstanding"] == "600000"
    refused = call(alice_ctx, "record_debt_payment", {"debt_id": debt["id"], "amount": "700k"})
    assert refused.is_error and refused.output["error"]["code"] == "OVERPAYMENT"
    assert DebtPayment.objects.count() == 1


def test_record_debt_payment_refuses_a_date_after_the_users_today(alice, alice_ctx):
    debt = call(alice_ctx, "create_debt", {"direction": "i_owe", "counterparty": "Lan", "principal": "1tr"}).output[
        "debt"
    ]
    tomorrow = user_today(alice) + dt.timedelta(days=1)
    args = {"debt_id": debt["id"], "amount": "400k", "paid_on": tomorrow.isoformat()}
    refused = call(alice_ctx, "record_debt_payment", args)
    assert refused.is_error and refused.output["error"]["code"] == "FUTURE_PAYMENT"
    assert not DebtPayment.objects.exists()


def test_the_vietqr_card(alice, alice_ctx):
    debt = call(
        alice_ctx, "create_debt", {"direction": "owed_to_me", "counterparty": "Tú", "principal": "250k"}
    ).output["debt"]
    missing = call(alice_ctx, "get_debt_vietqr", {"debt_id": debt["id"]})
    assert missing.output["error"]["code"] == "ACCOUNT_REQUIRED"
    account = factories.asset(alice, kind="bank_account", bank_bin="970436", account_number="0071000012345")
    made = call(alice_ctx, "get_debt_vietqr", {"debt_id": debt["id"], "account_id": account.id})
    assert made.card["kind"] == "vietqr" and made.card["code"] == debt["code"]
    assert made.card["payload"].startswith("000201") and made.card["amount"] == "250000"


def test_get_plan_without_a_plan(alice_ctx):
    result = call(alice_ctx, "get_plan")
    assert result.output["plan"] is None and result.card["kind"] == "plan"


def test_get_plan_with_an_active_plan(alice, alice_ctx, client):
    client.force_login(alice)
    month = f"{alice_ctx.today:%Y-%m}"
    plan = client.post(
        "/api/v1/plans",
        {"month": month, "expected_income": "20tr", "fixed_expenses": [], "lifestyle_mode": "balanced"},
        content_type="application/json",
    ).json()
    client.post(f"/api/v1/plans/{plan['id']}/activate")
    result = call(alice_ctx, "get_plan")
    assert result.output["plan"]["daily_guide"] == plan["daily_guide"]["guide"]
    assert result.card["safe_to_spend_today"] == result.output["plan"]["safe_to_spend_today"]


def test_the_forecast_tool_and_card(alice, alice_ctx):
    assert call(alice_ctx, "get_cash_forecast").card["empty"] is True
    factories.asset(alice, kind="bank_account", balance="1000000")
    call(
        alice_ctx,
        "create_debt",
        {
            "direction": "i_owe",
            "counterparty": "Lan",
            "principal": "1500000",
            "due_on": (alice_ctx.today + dt.timedelta(days=2)).isoformat(),
        },
    )
    result = call(alice_ctx, "get_cash_forecast", {"days": 5})
    assert result.output["shortfall"] is True
    assert result.output["lowest"]["balance"] == "-500000"
    assert [e["label"] for e in result.output["events"]] == ["Lan"]
    assert result.card["kind"] == "forecast" and len(result.card["series"]) == 6


def test_list_debts_and_the_forecast_read_a_cards_amount_due(alice, alice_ctx):
    today = alice_ctx.today
    statement_day = min((today - dt.timedelta(days=3)).day, 28)
    factories.asset(alice, name="VCB", kind="bank_account", balance="4000000")
    factories.asset(
        alice,
        name="VIB card",
        kind="credit_card",
        balance="2500000",
        statement_day=statement_day,
        due_day=statement_day,
    )
    listed = call(alice_ctx, "list_debts", {})
    (card,) = listed.output["cards"]
    assert (card["name"], card["amount_due"], card["currency"]) == ("VIB card", "2500000", "VND")
    assert card["due_on"] > today.isoformat() and card["overdue"] is False
    assert listed.card["cards"] == [
        {k: card[k] for k in ("account", "name", "currency", "amount_due", "due_on", "overdue")}
    ]
    assert call(alice_ctx, "list_debts", {"direction": "owed_to_me"}).output["cards"] == []
    forecast = call(alice_ctx, "get_cash_forecast", {"days": 40})
    assert forecast.output["start_balance"] == "4000000"
    (event,) = [e for e in forecast.output["events"] if e["kind"] == "card"]
    assert (event["date"], event["amount"]) == (card["due_on"], "-2500000")
    assert event["label"].startswith("VIB card: ")  # in the language the tool runs in

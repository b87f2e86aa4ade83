import datetime as dt

import pytest

from assets.models import Source
from tests import factories
from tests.chat.tools.helpers import call

pytestmark = pytest.mark.django_db(transaction=True)


def test_list_transactions_returns_the_contract_fields_newest_first(alice, alice_ctx):
    wallet = factories.asset(alice, name="Wallet")
    factories.txn(alice, amount="150000", description="KFC", occurred_on=alice_ctx.today, asset=wallet)
    factories.txn(alice, amount="40000", description="Grab", occurred_on=alice_ctx.today - dt.timedelta(days=1))

    outcome = call(alice_ctx, "list_transactions", {"limit": 10})

    assert not outcome.is_error
    first, second = outcome.output["transactions"]
    assert set(first) == {
        "id", "occurred_on", "amount", "currency", "direction", "description", "category", "source", "asset_id",
        "editable", "note", "excluded", "transfer", "split",
    }  # fmt: skip
    assert (first["note"], first["excluded"], first["transfer"], first["split"]) == ("", False, None, None)
    assert (first["description"], first["amount"], first["asset_id"], first["editable"]) == (
        "KFC",
        "150000",
        wallet.id,
        True,
    )
    assert second["description"] == "Grab"
    assert outcome.card is None


def test_list_transactions_filters_and_limits(alice, alice_ctx):
    for i in range(5):
        factories.txn(alice, description=f"m{i}", occurred_on=alice_ctx.today)
    factories.txn(alice, description="bank", source=Source.SYNCED, external_id="x1", occurred_on=alice_ctx.today)

    synced = call(alice_ctx, "list_transactions", {"source": "synced"}).output
    limited = call(alice_ctx, "list_transactions", {"limit": 2, "source": "manual"}).output

    assert [t["description"] for t in synced["transactions"]] == ["bank"]
    assert synced["transactions"][0]["editable"] is False
    assert limited["count"] == 2 and limited["has_more"] is True
    assert call(alice_ctx, "list_transactions", {"limit": 3.0}).output["count"] == 3


def test_usd_amounts_are_quantized_strings(alice_ctx, alice):
    factories.txn(alice, amount="12.5", currency="USD", occurred_on=alice_ctx.today)
    assert call(alice_ctx, "list_transactions").output["transactions"][0]["amount"] == "12.50"


@pytest.mark.parametrize(
    "bad",
    [
        {"limit": 0},
        {"limit": 101},
        {"limit": "ten"},
        {"limit": True},
        {"source": "mine"},
        {"category": "pizza"},
        {"direction": "sideways"},
        {"since": "yesterday"},
        {"until": "2026-13-40"},
        {"user_id": 2},
    ],
)
def test_list_transactions_refuses_bad_input(alice_ctx, bad):
    outcome = call(alice_ctx, "list_transactions", bad)
    assert outcome.is_error
    assert set(outcome.output["error"]) >= {"code", "message"}


def test_it_never_shows_another_users_rows(alice, bob, alice_ctx):
    factories.txn(bob, description="bob's secret")
    factories.asset(bob, name="bob's wallet")
    factories.goal(bob, name="bob's house")

    assert call(alice_ctx, "list_transactions").output["transactions"] == []
    assert call(alice_ctx, "list_assets").output["assets"] == []
    assert call(alice_ctx, "list_goals").output["goals"] == []


def test_list_linked_accounts_and_assets(alice, alice_ctx):
    factories.linked_account(alice, balance="5000000")
    factories.asset(alice, name="Bank", kind="bank_account", source=Source.SYNCED, balance="5000000")
    factories.asset(alice, name="Cash", balance="200000")

    accounts = call(alice_ctx, "list_linked_accounts").output["linked_accounts"]
    manual = call(alice_ctx, "list_assets", {"source": "manual"}).output["assets"]
    everything = call(alice_ctx, "list_assets").output["assets"]

    assert accounts[0]["masked_number"] and accounts[0]["balance"] == "5000000"
    assert [a["name"] for a in manual] == ["Cash"]
    assert {a["name"]: a["editable"] for a in everything} == {"Cash": True, "Bank": False}


def test_list_budgets_reports_limit_spent_and_remaining_for_a_month(alice, alice_ctx):
    factories.budget(alice, category="dining", amount="2000000")
    factories.txn(alice, category="dining", amount="500000", occurred_on=alice_ctx.today.replace(day=1))
    month = f"{alice_ctx.today:%Y-%m}"

    budgets = call(alice_ctx, "list_budgets", {"month": month}).output

    assert budgets["month"] == month
    assert budgets["budgets"] == [
        {
            "id": budgets["budgets"][0]["id"],
            "category": "dining",
            "amount": "2000000",
            "spent": "500000",
            "remaining": "1500000",
            "currency": "VND",
            "converted": [],
            "rate_missing": [],
        }
    ]
    assert call(alice_ctx, "list_budgets", {"month": "2020-01"}).output["budgets"][0]["spent"] == "0"


@pytest.mark.parametrize("month", ["2026-13", "26-11", "2026/11", "November"])
def test_list_budgets_refuses_a_bad_month(alice_ctx, month):
    assert call(alice_ctx, "list_budgets", {"month": month}).is_error


def test_list_goals_has_progress_and_monthly_needed(alice, alice_ctx):
    factories.goal(alice, name="House", target_amount="1200000", current_amount="600000")

    goal = call(alice_ctx, "list_goals", {"status": "active"}).output["goals"][0]

    assert goal["progress_pct"] == "50.0"
    assert goal["monthly_needed"] == "10000"  # 600,000 left over 60 months
    assert call(alice_ctx, "list_goals", {"status": "achieved"}).output["goals"] == []
    assert call(alice_ctx, "list_goals", {"status": "done"}).is_error


def test_summarize_spending_by_category_feeds_a_bar_chart(alice, alice_ctx):
    today = alice_ctx.today
    factories.txn(alice, category="dining", amount="150000", occurred_on=today)
    factories.txn(alice, category="dining", amount="50000", occurred_on=today)
    factories.txn(alice, category="transport", amount="40000", occurred_on=today)
    factories.txn(alice, category="salary", direction="income", amount="9000000", occurred_on=today)
    factories.txn(alice, category="dining", amount="12", currency="USD", occurred_on=today)

    outcome = call(alice_ctx, "summarize_spending", {"period": "this_month", "group_by": "category"})

    assert outcome.output["groups"] == [
        {"label": "dining", "amount": "200000"},
        {"label": "transport", "amount": "40000"},
    ]
    assert outcome.output["total"] == "240000" and outcome.output["currency"] == "VND"
    assert outcome.card["kind"] == "chart" and outcome.card["chart"] == "bar"
    assert outcome.card["series"][0] == {"label": "Dining", "key": "dining", "amount": "200000"}


def test_summarize_spending_by_day_and_week_covers_the_whole_period(alice, alice_ctx):
    today = alice_ctx.today
    factories.txn(alice, amount="30000", occurred_on=today - dt.timedelta(days=3))
    factories.txn(alice, amount="70000", occurred_on=today - dt.timedelta(days=40))

    by_day = call(alice_ctx, "summarize_spending", {"period": "last_30_days", "group_by": "day"})
    by_week = call(alice_ctx, "summarize_spending", {"period": "last_90_days", "group_by": "week"})

    assert len(by_day.output["groups"]) == 30 and by_day.output["total"] == "30000"
    assert by_day.card["chart"] == "line"
    assert by_week.output["total"] == "100000"
    assert sum(int(g["amount"]) for g in by_week.output["groups"]) == 100000
    assert by_week.output["groups"][0]["label"] == (today - dt.timedelta(days=89)).isoformat()


def test_summarize_spending_last_month_is_the_whole_previous_month(alice_ctx):
    out = call(alice_ctx, "summarize_spending", {"period": "last_month"}).output
    first = alice_ctx.today.replace(day=1)
    assert out["until"] == (first - dt.timedelta(days=1)).isoformat()
    assert out["since"].endswith("-01")


@pytest.mark.parametrize("bad", [{"period": "forever"}, {"group_by": "merchant"}, {"period": 3}])
def test_summarize_spending_refuses_bad_input(alice_ctx, bad):
    assert call(alice_ctx, "summarize_spending", bad).is_error


def test_list_smart_suggestions_reads_active_suggestions(alice, alice_ctx):
    pytest.importorskip("suggestions.selectors")
    outcome = call(alice_ctx, "list_smart_suggestions", {"limit": 5})
    assert not outcome.is_error
    assert isinstance(outcome.output["suggestions"], list)
    assert call(alice_ctx, "list_smart_suggestions", {"limit": 0}).is_error


def test_list_transactions_shows_a_paired_transfer_and_a_split(alice, alice_ctx):
    from assets.ledger.models import TransactionSplit, Transfer
    from assets.models import Transaction

    bank = factories.asset(alice, name="Vietcombank", kind="bank_account")
    momo = factories.asset(alice, name="MoMo", kind="e_wallet")
    out = factories.txn(alice, amount="2000000", description="Nap MoMo", occurred_on=alice_ctx.today, asset=bank)
    inc = factories.txn(
        alice, amount="2000000", direction="income", category="other_income", occurred_on=alice_ctx.today, asset=momo
    )
    transfer = Transfer.objects.create(user=alice, outgoing=out, incoming=inc, status=Transfer.Status.PAIRED)
    Transaction.objects.filter(id__in=[out.id, inc.id]).update(transfer=transfer)
    bill = factories.txn(alice, amount="300000", category="groceries", occurred_on=alice_ctx.today - dt.timedelta(1))
    TransactionSplit.objects.create(transaction=bill, amount="200000", category="groceries", position=0)
    TransactionSplit.objects.create(transaction=bill, amount="100000", category="shopping", position=1)

    rows = {t["id"]: t for t in call(alice_ctx, "list_transactions", {"limit": 10}).output["transactions"]}

    assert rows[out.id]["transfer"] == {"id": transfer.id, "counterpart": inc.id, "status": "paired"}
    assert [p["amount"] for p in rows[bill.id]["split"]] == ["200000", "100000"]
    assert rows[bill.id]["transfer"] is None


def test_the_spending_tools_and_cards_convert_at_each_rows_day_and_name_what_has_no_rate(alice, alice_ctx):
    """As on the pages: a dollar row converted at its own day's rate and shown with it; a euro row with no
    rate named as missing, never counted at 1:1 (summarize_spending, its chart card, list_budgets, get_plan)."""
    from plans.services import plan_activate, plan_create

    first = alice_ctx.today.replace(day=1)
    factories.rate(first - dt.timedelta(days=2), "25000")
    factories.budget(alice, category="dining", amount="2000000")
    factories.txn(alice, amount="100000", category="dining", occurred_on=first)
    factories.txn(alice, amount="4", currency="USD", category="dining", occurred_on=first)
    factories.txn(alice, amount="6", currency="EUR", category="dining", occurred_on=first)
    converted = [
        {"currency": "USD", "amount": "4.00", "to_currency": "VND", "converted": "100000", "rate": "25000",
         "rate_date": (first - dt.timedelta(days=2)).isoformat()}
    ]  # fmt: skip
    missing = [{"currency": "EUR", "amount": "6.00"}]
    told = call(alice_ctx, "summarize_spending", {"period": "this_month", "group_by": "category"})
    assert told.output["total"] == "200000"
    assert (told.output["converted"], told.output["rate_missing"]) == (converted, missing)
    assert (told.card["converted"], told.card["rate_missing"]) == (converted, missing)
    (budget,) = call(alice_ctx, "list_budgets", {}).output["budgets"]
    assert (budget["spent"], budget["converted"], budget["rate_missing"]) == ("200000", converted, missing)
    plan = plan_create(user=alice, month=f"{first:%Y-%m}", expected_income="20000000", fixed_expenses=[])
    plan_activate(user=alice, plan_id=plan.id)
    told = call(alice_ctx, "get_plan")
    assert (told.output["plan"]["converted"], told.output["plan"]["rate_missing"]) == (converted, missing)
    assert (told.card["converted"], told.card["rate_missing"]) == (converted, missing)

"""Looking ahead and what is owed (CONTRACT §9.3): the month's plan, the cash-flow forecast, debts and their
VietQR, and budgets set through the chat. Reads through the plans and goals selectors; writes through the
goals services, recorded for replay like every mutation (chat.tools.runner); a budget's deletion waits for the
user's confirmation."""

from django.utils.translation import gettext as _

from assets import categories
from assets.cards.selectors import card_dues_for
from assets.ledger.shapes import conversions_json, rate_missing_json, rate_text
from chat import cards_ahead
from chat.tools.base import AMOUNT, CONFIRM, CURRENCY, DATE, ID, MUTATION, READ, Tool, ToolContext, money, schema
from goals import selectors as goal_selectors
from goals import services as goal_services
from goals.debts import qr as debt_qr
from goals.debts import selectors as debt_selectors
from goals.debts import services as debt_services
from goals.debts.models import Debt
from plans import math as pm
from plans.forecast_present import days_param, forecast_body
from plans.forecast_read import cash_forecast
from plans.models import MonthlyPlan
from plans.recurring import bills_still_due
from plans.selectors import plan_current, plan_state
from zeus.errors import NotFound
from zeus.money import from_minor

DEBTS_SHOWN = 50
SCHEDULE_SHOWN = 3


def get_plan(ctx: ToolContext, args: dict) -> dict:
    plan = plan_current(user=ctx.user, today=ctx.today)
    if plan is None:
        return {"plan": None, "message": "No plan for this month yet."}
    state = plan_state(plan, today=ctx.today)
    c = plan.currency
    bills = bills_still_due(user=ctx.user, currency=c, today=ctx.today, month_last=pm.month_last(plan.month))
    return {
        "plan": {
            "id": plan.id,
            "month": f"{plan.month.year:04d}-{plan.month.month:02d}",
            "status": plan.status,
            "currency": c,
            "active": plan.status == MonthlyPlan.Status.ACTIVE,
            "safe_to_spend_today": money(from_minor(state.guide.left_today, c), c),
            "daily_guide": money(from_minor(state.guide.guide, c), c),
            "spent_today": money(from_minor(state.guide.spent_today, c), c),
            "days_left": state.guide.days_left,
            "safe_to_spend_left_this_month": money(from_minor(state.safe_left, c), c),
            "warning": state.warning,
            "bills_still_due": [
                {"name": b.name, "amount": money(b.amount, b.currency), "due_on": b.due_on.isoformat()} for b in bills
            ],
            # As on the plan's page: this month's expenses in other currencies with the rates used, and what
            # no rate converts (left out of every figure above, never taken at 1:1).
            "converted": conversions_json(state.converted),
            "rate_missing": rate_missing_json(state.rate_missing),
        }
    }


def get_cash_forecast(ctx: ToolContext, args: dict) -> dict:
    view = cash_forecast(user=ctx.user, today=ctx.today, days=days_param(args.get("days")))
    body = forecast_body(view)
    days = body.pop("days")
    # The model reads the days that carry an event and the lowest point; the card draws every day's balance.
    body["daily_spending"] = next((e["amount"] for d in days for e in d["events"] if e["kind"] == "spending"), "0")
    body["events"] = [
        {"date": d["date"], **e, "balance_after": d["balance"]}
        for d in days
        for e in d["events"]
        if e["kind"] != "spending"
    ]
    body["balances"] = [{"date": d["date"], "balance": d["balance"]} for d in days]
    return body


def debt_out(view) -> dict:
    debt, c = view.debt, view.debt.currency
    return {
        "id": debt.id,
        "direction": debt.direction,
        "counterparty": debt.counterparty,
        "principal": money(debt.principal, c),
        "currency": c,
        "interest_rate": rate_text(debt.interest_rate),
        "interest_method": debt.interest_method,
        "opened_on": debt.opened_on.isoformat(),
        "status": debt.status,
        "total": money(view.total, c),
        "paid": money(view.paid, c),
        "outstanding": money(view.outstanding, c),
        "overdue": view.overdue,
        "next_due": (
            {"due_on": view.next_due.due_on.isoformat(), "amount": money(view.next_due.remaining, c)}
            if view.next_due
            else None
        ),
        # The next instalments still to pay, for the card's schedule excerpt (the whole schedule is on /debts).
        "schedule": [
            {
                "number": r.number,
                "due_on": r.due_on.isoformat(),
                "amount": money(r.amount, c),
                "remaining": money(r.remaining, c),
            }
            for r in view.schedule
            if r.remaining > 0
        ][:SCHEDULE_SHOWN],
        "code": debt.purpose,
        "note": debt.note,
    }


def list_debts(ctx: ToolContext, args: dict) -> dict:
    status = args.get("status", "open")
    direction = args.get("direction", "all")
    qs = debt_selectors.debt_list(
        user=ctx.user, status=None if status == "all" else status, direction=None if direction == "all" else direction
    )
    views = debt_selectors.debt_views(qs[: DEBTS_SHOWN + 1], today=ctx.today)
    totals: dict[tuple[str, str], object] = {}
    for view in views:
        if view.debt.status == Debt.Status.OPEN:
            key = (view.debt.direction, view.debt.currency)
            totals[key] = totals.get(key, 0) + view.outstanding
    # What a credit card owes is owed by the user: listed apart, with its statement's amount due and due date.
    owe_cards = direction in ("i_owe", "all") and status != Debt.Status.SETTLED
    return {
        "debts": [debt_out(v) for v in views[:DEBTS_SHOWN]],
        "more": len(views) > DEBTS_SHOWN,
        "status": status,
        "direction": direction,
        "totals": [{"direction": d, "currency": c, "outstanding": money(t, c)} for (d, c), t in sorted(totals.items())],
        "cards": [card_out(v) for v in card_dues_for(user=ctx.user, today=ctx.today)] if owe_cards else [],
    }


def card_out(view) -> dict:
    due, c = view.due, view.currency
    return {
        "account": view.asset.id,
        "name": view.asset.name,
        "currency": c,
        "statement_on": due.statement_on.isoformat(),
        "statement_balance": money(view.statement_balance, c),
        "repaid_since": money(view.repaid, c),
        "amount_due": money(view.amount_due, c),
        "due_on": due.due_on.isoformat(),
        "overdue": due.overdue,
        "not_yet_billed": money(view.not_yet_billed, c),
        "next_due_on": due.next_due_on.isoformat(),
    }


def create_debt(ctx: ToolContext, args: dict) -> dict:
    debt = debt_services.debt_create(user=ctx.user, **args)
    return {"created": True, "debt": debt_out(debt_selectors.debt_view(debt, today=ctx.today))}


def record_debt_payment(ctx: ToolContext, args: dict) -> dict:
    debt_services.debt_payment_record(
        user=ctx.user,
        debt_id=args["debt_id"],
        amount=args["amount"],
        paid_on=args.get("paid_on"),
        transaction=args.get("transaction_id"),
    )
    debt = debt_selectors.debt_get(user=ctx.user, debt_id=args["debt_id"])
    return {"recorded": True, "debt": debt_out(debt_selectors.debt_view(debt, today=ctx.today))}


def get_debt_vietqr(ctx: ToolContext, args: dict) -> dict:
    made = debt_qr.debt_vietqr(user=ctx.user, debt_id=args["debt_id"], account=args.get("account_id"))
    debt = debt_selectors.debt_get(user=ctx.user, debt_id=args["debt_id"])
    return {
        "debt_id": debt.id,
        "counterparty": debt.counterparty,
        "payload": made.payload,
        "code": made.code,
        "amount": money(made.amount, "VND"),
        "currency": "VND",
        "account": {"id": made.account.id, "name": made.account.name, "bank_bin": made.account.bank_bin},
    }


def budget_out(status) -> dict:
    b = status.budget
    return {
        "id": b.id,
        "category": b.category,
        "amount": money(b.amount, b.currency),
        "spent": money(status.spent, b.currency),
        "remaining": money(status.remaining, b.currency),
        "currency": b.currency,
    }


def _budget_of(ctx, budget) -> dict:
    (status,) = goal_selectors.budget_statuses(user=ctx.user, budgets=[budget])
    return budget_out(status)


def create_budget(ctx: ToolContext, args: dict) -> dict:
    budget = goal_services.budget_create(user=ctx.user, **args)
    return {"created": True, "budget": _budget_of(ctx, budget)}


def update_budget(ctx: ToolContext, args: dict) -> dict:
    fields = {k: v for k, v in args.items() if k != "budget_id"}
    budget = goal_services.budget_update(user=ctx.user, budget_id=args["budget_id"], **fields)
    return {"updated": True, "budget": _budget_of(ctx, budget)}


def check_budget_delete(ctx: ToolContext, args: dict) -> dict:
    budget = goal_selectors.budget_list(user=ctx.user).filter(id=args["budget_id"]).first()
    if budget is None:
        raise NotFound(_("No such budget."))
    return {"budget": _budget_of(ctx, budget)}


def execute_budget_delete(ctx: ToolContext, args: dict) -> dict:
    target = check_budget_delete(ctx, args)
    goal_services.budget_delete(user=ctx.user, budget_id=args["budget_id"])
    return {"deleted": True, **target}


EXPENSE_CATEGORY = {"type": "string", "enum": list(categories.EXPENSE)}
DEBT_PROPS = {
    "direction": {"type": "string", "enum": ["i_owe", "owed_to_me"]},
    "counterparty": {"type": "string", "minLength": 1, "maxLength": 100, "description": "The person or lender."},
    "principal": AMOUNT,
    "currency": CURRENCY,
    "opened_on": {**DATE, "description": "When the money changed hands; default today."},
    "interest_rate": {"type": ["number", "string"], "description": "Yearly %, 0 to 100; default 0."},
    "interest_method": {"type": "string", "enum": ["flat", "reducing"]},
    "due_on": {**DATE, "description": "One repayment date; or give installments and first_due_on."},
    "installments": {"type": "integer", "minimum": 1, "maximum": 600, "description": "Monthly instalments."},
    "first_due_on": DATE,
    "note": {"type": "string", "maxLength": 200},
}

TOOLS = (
    Tool(
        name="get_plan",
        family=READ,
        workflows=("coach", "inspect"),
        card=cards_ahead.plan,
        description=(
            "This month's plan: what is safe to spend today, the daily guide, days left, the warning "
            "(on_track, spend_pace, overspent, goal_drift) and the bills still due this month. plan is null "
            "when the user has no plan this month."
        ),
        input_schema=schema({}),
        handler=get_plan,
    ),
    Tool(
        name="get_cash_forecast",
        family=READ,
        workflows=("coach", "inspect"),
        card=cards_ahead.forecast,
        description=(
            "The projected spendable balance (cash, bank, e-wallets, less card debt) day by day: expected "
            "income and bills, credit cards' amounts due on their due dates (kind card), debt instalments, "
            "the plan's fixed expenses and typical daily spending. Answers "
            "'will I run short before payday?': look at lowest and shortfall. days: 1-90, default through the "
            "day after the next income. accounts 0 means nothing to project yet."
        ),
        input_schema=schema({"days": {"type": "integer", "minimum": 1, "maximum": 90}}),
        handler=get_cash_forecast,
    ),
    Tool(
        name="list_debts",
        family=READ,
        workflows=("coach", "inspect"),
        card=cards_ahead.debts,
        description=(
            "Debts and IOUs: what the user owes (i_owe) and what others owe them (owed_to_me), with what is "
            "outstanding, the next due date and totals; with i_owe or all, also cards: each credit card's "
            "statement balance, amount_due and due_on (overdue when past it), and what it charged since "
            "(not_yet_billed, due next_due_on). status open (default), settled or all."
        ),
        input_schema=schema(
            {
                "status": {"type": "string", "enum": ["open", "settled", "all"]},
                "direction": {"type": "string", "enum": ["i_owe", "owed_to_me", "all"]},
            }
        ),
        handler=list_debts,
    ),
    Tool(
        name="get_debt_vietqr",
        family=READ,
        workflows=("coach", "inspect"),
        card=cards_ahead.vietqr,
        description=(
            "A VietQR for a debt owed to the user: the friend scans it to pay back what is still owed, and the "
            "payment settles the debt when it arrives. account_id: a bank-account asset with a bank BIN and "
            "account number (list_assets); without one the result is an ACCOUNT_REQUIRED error."
        ),
        input_schema=schema({"debt_id": ID, "account_id": ID}, required=("debt_id",)),
        handler=get_debt_vietqr,
    ),
    Tool(
        name="create_debt",
        family=MUTATION,
        workflows=("coach", "create"),
        card=cards_ahead.debt,
        description=(
            "Record a debt or IOU: money the user borrowed (i_owe) or lent (owed_to_me). Give due_on for one "
            "repayment, or installments with first_due_on for monthly instalments; interest only with one of them."
        ),
        input_schema=schema(DEBT_PROPS, required=("direction", "counterparty", "principal")),
        handler=create_debt,
    ),
    Tool(
        name="record_debt_payment",
        family=MUTATION,
        workflows=("coach", "create"),
        card=cards_ahead.debt,
        description=(
            "Record a payment against a debt (list_debts gives the ids); more than what is outstanding is refused. "
            "transaction_id links the ledger row that carried it."
        ),
        input_schema=schema(
            {"debt_id": ID, "amount": AMOUNT, "paid_on": DATE, "transaction_id": ID}, required=("debt_id", "amount")
        ),
        handler=record_debt_payment,
    ),
    Tool(
        name="create_budget",
        family=MUTATION,
        workflows=("coach",),
        card=cards_ahead.budget,
        description="Set a monthly spending limit for an expense category (one budget per category).",
        input_schema=schema(
            {"category": EXPENSE_CATEGORY, "amount": AMOUNT, "currency": CURRENCY}, required=("category", "amount")
        ),
        handler=create_budget,
    ),
    Tool(
        name="update_budget",
        family=MUTATION,
        workflows=("coach", "update"),
        card=cards_ahead.budget,
        description="Change a budget's monthly limit or category (list_budgets gives the ids).",
        input_schema=schema({"budget_id": ID, "amount": AMOUNT, "category": EXPENSE_CATEGORY}, required=("budget_id",)),
        handler=update_budget,
    ),
    Tool(
        name="delete_budget",
        family=CONFIRM,
        workflows=("coach",),
        card=cards_ahead.budget,
        description=(
            "Delete a budget. Nothing is deleted by this call: the user is shown a confirmation card and the "
            "deletion happens only when they approve it."
        ),
        input_schema=schema({"budget_id": ID}, required=("budget_id",)),
        handler=check_budget_delete,
        execute=execute_budget_delete,
    ),
)

"""A plan's state in the contract's JSON shape (docs/contract/rest.md): amounts as strings in the plan's currency."""

from assets import categories
from assets.ledger.shapes import conversions_json, rate_missing_json
from plans.recurring import RecurringCharge
from plans.state import PlanState
from zeus.money import from_minor, quantize, to_minor


def bills_outlook(state: PlanState, bills: list[RecurringCharge]) -> dict:
    """The recurring charges still due this month and whether the plan can absorb them (docs/plans.md):
    short when the subscriptions due exceed the safe-to-spend left, or the bills due outside the fixed
    expenses exceed the essential money left."""
    plan, c = state.plan, state.plan.currency
    fixed = {line.category for line in plan.fixed_expenses.all()}
    open_bills = [b for b in bills if b.category not in fixed]
    discretionary = sum(to_minor(b.amount, c) for b in open_bills if categories.is_discretionary(b.category))
    essential = sum(to_minor(b.amount, c) for b in open_bills if not categories.is_discretionary(b.category))
    safe_left = max(0, state.allocations.safe - state.actuals.discretionary)
    essential_left = max(0, state.allocations.essential - state.actuals.essential)
    return {
        "bills_due": [
            {"name": b.name, "kind": b.kind, "amount": str(quantize(b.amount, c)), "due_on": b.due_on.isoformat()}
            for b in bills
        ],
        "bills_due_total": str(quantize(sum((b.amount for b in bills), start=quantize(0, c)), c)),
        "bills_short": discretionary > safe_left or essential > essential_left,
    }


def plan_to_dict(state: PlanState, *, bills: list[RecurringCharge] | None = None) -> dict:
    plan, c = state.plan, state.plan.currency

    def money(units: int) -> str:
        return str(from_minor(units, c))

    rec = state.recommendation
    return {
        "id": plan.id,
        "month": f"{plan.month:%Y-%m}",
        "status": plan.status,
        "currency": c,
        "lifestyle_mode": plan.lifestyle_mode,
        "expected_income": str(quantize(plan.expected_income, c)),
        "fixed_expenses": [
            {"id": line.id, "name": line.name, "amount": str(quantize(line.amount, c)), "category": line.category}
            for line in plan.fixed_expenses.all()
        ],
        "primary_goal_id": plan.primary_goal_id,
        "reminders_enabled": plan.reminders_enabled,
        "reminder_time": f"{plan.reminder_time:%H:%M}",
        "allocations": {
            "fixed": money(state.allocations.fixed),
            "essential": money(state.allocations.essential),
            "goal": money(state.allocations.goal),
            "safe_to_spend": money(state.allocations.safe),
        },
        "actuals": {
            "fixed": money(state.actuals.fixed),
            "essential": money(state.actuals.essential),
            "discretionary": money(state.actuals.discretionary),
            "goal": money(state.actuals.goal),
        },
        "daily_guide": {
            "days_left": state.guide.days_left,
            "guide": money(state.guide.guide),
            "spent_today": money(state.guide.spent_today),
            "left_today": money(state.guide.left_today),
        },
        "warning": {"state": state.warning, "dismissed": state.dismissed, **bills_outlook(state, bills or [])},
        "streak": state.streak,
        "recommendation": None
        if rec is None
        else {"kind": rec.kind, "amount": money(rec.amount), "daily_guide": money(rec.daily_guide)},
        "summary": plan.summary,
        "converted": conversions_json(state.converted),
        "rate_missing": rate_missing_json(state.rate_missing),
    }

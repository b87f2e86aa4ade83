"""The rule-based suggestions for one user, as drafts. Reads go through the ledger's and goals' selectors."""

import calendar
import datetime as dt
from decimal import Decimal

from assets import categories
from assets.selectors import expense_totals_by_category
from goals.models import Goal
from goals.selectors import budget_list, budget_statuses, goal_list, goal_progress_of
from suggestions.drafts import Draft, chat_url
from suggestions.models import Suggestion
from suggestions.thresholds import (
    GUARDRAIL_MIN_DAY,
    SPENDING_WATCH_MIN_DAY,
    SPENDING_WATCH_RATIO,
    minimum_amount,
)
from zeus.money import format_amount, quantize
from zeus.selectors import user_currency

Kind = Suggestion.Kind


def rule_drafts(*, user, today: dt.date) -> list[Draft]:
    """Every rule that holds today. A rule that does not hold proposes nothing (the refresh retires it)."""
    period = f"{today:%Y-%m}"
    drafts = []
    watch = _spending_watch(user, today, period)
    if watch:
        drafts.append(watch)
    drafts += _budget_guardrails(user, today, period)
    drafts += _goal_nudges(user, today, period)
    action = _next_best_action(user, period)
    if action:
        drafts.append(action)
    return drafts


def _discretionary(user, currency: str, since: dt.date, until: dt.date) -> Decimal:
    totals = expense_totals_by_category(user=user, currency=currency, since=since, until=until)
    return sum((v for c, v in totals.items() if categories.is_discretionary(c)), Decimal(0))


def _spending_watch(user, today: dt.date, period: str) -> Draft | None:
    """This month's discretionary spend so far against last month's by the same day of the month."""
    if today.day < SPENDING_WATCH_MIN_DAY:
        return None
    currency = user_currency(user)
    first = today.replace(day=1)
    last_month_end = first - dt.timedelta(days=1)
    last_month_first = last_month_end.replace(day=1)
    same_day_last_month = last_month_first.replace(day=min(today.day, last_month_end.day))
    this = _discretionary(user, currency, first, today)
    last = _discretionary(user, currency, last_month_first, same_day_last_month)
    if last <= 0 or this <= last * SPENDING_WATCH_RATIO or this - last < minimum_amount(currency):
        return None
    pct = int((this / last - 1) * 100)
    prompt = "Where is my discretionary spending going this month, and how can I slow it down?"
    return Draft(
        kind=Kind.SPENDING_WATCH,
        dedupe_key=f"spending_watch:{period}",
        title=f"Discretionary spending is {pct}% ahead of last month",
        body=(
            f"You have spent {format_amount(this, currency)} on dining, shopping and other extras this month, "
            f"against {format_amount(last, currency)} by day {today.day} last month."
        ),
        prompt=prompt,
        cta_url=chat_url(prompt),
        payload={"this_month": str(this), "last_month": str(last), "day": today.day, "currency": currency},
    )


def _budget_guardrails(user, today: dt.date, period: str) -> list[Draft]:
    """A budget not yet used up whose straight-line pace for the month runs past its limit."""
    if today.day < GUARDRAIL_MIN_DAY:
        return []
    days_in_month = calendar.monthrange(today.year, today.month)[1]
    out = []
    for status in budget_statuses(user=user, month=(today.year, today.month)):
        budget, spent = status.budget, status.spent
        projected = quantize(spent * days_in_month / today.day, budget.currency)
        if spent >= budget.amount or projected <= budget.amount:
            continue
        label = budget.category.replace("_", " ")
        limit = format_amount(budget.amount, budget.currency)
        prompt = f"How can I keep my {label} spending under {limit} this month?"
        out.append(
            Draft(
                kind=Kind.BUDGET_GUARDRAIL,
                dedupe_key=f"budget_guardrail:{budget.category}:{period}",
                title=f"Your {label} budget is on pace to run out",
                body=(
                    f"You have spent {format_amount(spent, budget.currency)} of {limit}. At this pace you will reach "
                    f"about {format_amount(projected, budget.currency)} by the end of the month."
                ),
                prompt=prompt,
                cta_url=chat_url(prompt),
                payload={
                    "category": budget.category,
                    "spent": str(spent),
                    "limit": str(budget.amount),
                    "projected": str(projected),
                    "currency": budget.currency,
                },
            )
        )
    return out


def _goal_nudges(user, today: dt.date, period: str) -> list[Draft]:
    out = []
    for goal in goal_list(user=user, status=Goal.Status.ACTIVE):
        progress = goal_progress_of(goal, today=today)
        if progress.on_track:
            continue
        needed = format_amount(progress.monthly_needed, goal.currency)
        out.append(
            Draft(
                kind=Kind.GOAL_NUDGE,
                dedupe_key=f"goal_nudge:{goal.id}:{period}",
                title=f"{goal.name} is behind schedule",
                body=(
                    f"You have {format_amount(goal.current_amount, goal.currency)} of "
                    f"{format_amount(goal.target_amount, goal.currency)} ({progress.progress_pct}%). "
                    f"Setting aside {needed} a month reaches it by {goal.deadline:%d %b %Y}."
                ),
                prompt=f"Help me get my {goal.name} goal back on track; I need {needed} a month.",
                cta_url="/plans",
                payload={
                    "goal_id": goal.id,
                    "monthly_needed": str(progress.monthly_needed),
                    "progress_pct": str(progress.progress_pct),
                    "currency": goal.currency,
                },
            )
        )
    return out


_ACTIONS = {
    "create_budget": (
        "Set a monthly budget",
        "A limit for the categories you spend most on lets Zeus warn you before you overspend.",
        "Help me set monthly budgets for my biggest spending categories.",
    ),
    "create_goal": (
        "Set your first goal",
        "A goal with a deadline turns saving into a monthly amount you can plan for.",
        "Help me set a savings goal.",
    ),
    "emergency_fund": (
        "Start an emergency fund",
        "Three to six months of essential spending set aside keeps a surprise bill from becoming debt.",
        "Help me start an emergency fund.",
    ),
}


def _next_best_action(user, period: str) -> Draft | None:
    """The one step that matters most next: a budget, then a goal, then an emergency fund."""
    goals = goal_list(user=user, status="all")
    if not budget_list(user=user).exists():
        action = "create_budget"
    elif not goals.exists():
        action = "create_goal"
    elif not goals.filter(kind=Goal.Kind.EMERGENCY_FUND).exists():
        action = "emergency_fund"
    else:
        return None
    title, body, prompt = _ACTIONS[action]
    return Draft(
        kind=Kind.NEXT_BEST_ACTION,
        dedupe_key=f"next_best_action:{action}:{period}",
        title=title,
        body=body,
        prompt=prompt,
        cta_url=chat_url(prompt),
        payload={"action": action},
    )

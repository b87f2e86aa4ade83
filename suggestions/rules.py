"""The rule-based suggestions for one user, as drafts. Reads go through the ledger's and goals' selectors."""

import calendar
import datetime as dt
from decimal import Decimal

from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assets import categories
from assets.labels import category_label
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
from zeus.i18n import user_language
from zeus.money import format_amount, quantize
from zeus.selectors import user_currency

Kind = Suggestion.Kind


def rule_drafts(*, user, today: dt.date) -> list[Draft]:
    """Every rule that holds today, written in the user's language. A rule that does not hold proposes nothing
    (the refresh retires it)."""
    with translation.override(user_language(user)):
        return _rule_drafts(user, today)


def _rule_drafts(user, today: dt.date) -> list[Draft]:
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
    prompt = _("Where is my discretionary spending going this month, and how can I slow it down?")
    return Draft(
        kind=Kind.SPENDING_WATCH,
        dedupe_key=f"spending_watch:{period}",
        title=_("Discretionary spending is %(pct)s%% ahead of last month") % {"pct": pct},
        body=_(
            "You have spent %(this)s on dining, shopping and other extras this month, "
            "against %(last)s by day %(day)s last month."
        )
        % {"this": _money(this, currency), "last": _money(last, currency), "day": today.day},
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
        words = {
            "category": category_label(budget.category).lower(),
            "limit": _money(budget.amount, budget.currency),
            "spent": _money(spent, budget.currency),
            "projected": _money(projected, budget.currency),
        }
        prompt = _("How can I keep my %(category)s spending under %(limit)s this month?") % words
        out.append(
            Draft(
                kind=Kind.BUDGET_GUARDRAIL,
                dedupe_key=f"budget_guardrail:{budget.category}:{period}",
                title=_("Your %(category)s budget is on pace to run out") % words,
                body=_(
                    "You have spent %(spent)s of %(limit)s. At this pace you will reach about %(projected)s "
                    "by the end of the month."
                )
                % words,
                prompt=prompt,
                cta_url=chat_url(prompt),
                payload={
                    "category": budget.category,
                    "spent": str(spent),
                    "limit": str(quantize(budget.amount, budget.currency)),
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
        words = {
            "goal": goal.name,
            "needed": _money(progress.monthly_needed, goal.currency),
            "current": _money(goal.current_amount, goal.currency),
            "target": _money(goal.target_amount, goal.currency),
            "pct": progress.progress_pct,
            "deadline": date_format(goal.deadline, "DATE_FORMAT"),
        }
        out.append(
            Draft(
                kind=Kind.GOAL_NUDGE,
                dedupe_key=f"goal_nudge:{goal.id}:{period}",
                title=_("%(goal)s is behind schedule") % words,
                body=_(
                    "You have %(current)s of %(target)s (%(pct)s%%). "
                    "Setting aside %(needed)s a month reaches it by %(deadline)s."
                )
                % words,
                prompt=_("Help me get my %(goal)s goal back on track; I need %(needed)s a month.") % words,
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
        gettext_lazy("Set a monthly budget"),
        gettext_lazy("A limit for the categories you spend most on lets Zeus warn you before you overspend."),
        gettext_lazy("Help me set monthly budgets for my biggest spending categories."),
    ),
    "create_goal": (
        gettext_lazy("Set your first goal"),
        gettext_lazy("A goal with a deadline turns saving into a monthly amount you can plan for."),
        gettext_lazy("Help me set a savings goal."),
    ),
    "emergency_fund": (
        gettext_lazy("Start an emergency fund"),
        gettext_lazy("Three to six months of essential spending set aside keeps a surprise bill from becoming debt."),
        gettext_lazy("Help me start an emergency fund."),
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
    title, body, prompt = (str(text) for text in _ACTIONS[action])
    return Draft(
        kind=Kind.NEXT_BEST_ACTION,
        dedupe_key=f"next_best_action:{action}:{period}",
        title=title,
        body=body,
        prompt=prompt,
        cta_url=chat_url(prompt),
        payload={"action": action},
    )


def _money(amount, currency: str) -> str:
    return format_amount(amount, currency, locale=translation.get_language())

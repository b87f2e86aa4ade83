import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from assets.ledger.totals import CountedRead, conversion_summary, missing_summary
from assets.selectors import spending_reads
from goals.models import Budget, Goal
from goals.progress import GoalProgress, goal_progress
from zeus.errors import NotFound, ValidationFailed
from zeus.money import quantize
from zeus.timeutil import month_bounds, user_today


def goal_list(*, user, status: str | None = None) -> QuerySet[Goal]:
    qs = Goal.objects.filter(user=user)
    if status and status != "all":
        if status not in Goal.Status.values:
            raise ValidationFailed(_("status must be active, achieved or all."), fields={"status": [_("Not valid.")]})
        qs = qs.filter(status=status)
    return qs


def active_goals_query(*, user_ids) -> QuerySet[Goal]:
    """The active goals of many users, oldest first per user (the batch jobs)."""
    goals = Goal.objects.filter(user_id__in=list(user_ids), status=Goal.Status.ACTIVE)
    return goals.order_by("user_id", "created_at", "id")


def goal_get(*, user, goal_id) -> Goal:
    try:
        return Goal.objects.get(user=user, id=int(goal_id))
    except (Goal.DoesNotExist, TypeError, ValueError):
        raise NotFound(_("No such goal.")) from None


def goal_progress_of(goal: Goal, *, today: dt.date) -> GoalProgress:
    return goal_progress(
        target=goal.target_amount,
        current=goal.current_amount,
        currency=goal.currency,
        started_on=goal.started_on,
        deadline=goal.deadline,
        today=today,
    )


@dataclass(frozen=True)
class BudgetStatus:
    budget: Budget
    spent: Decimal
    remaining: Decimal
    # The month's spending of the budget's category in other currencies that no rate converts into the
    # budget's (missing_summary's): named beside the figure, never counted at 1:1.
    rate_missing: tuple[dict, ...] = ()
    # What of `spent` was converted from other currencies, with the rates used (conversion_summary's).
    converted: tuple[dict, ...] = ()


def budget_list(*, user) -> QuerySet[Budget]:
    return Budget.objects.filter(user=user)


def budget_statuses(
    *, user, budgets=None, month: tuple[int, int] | None = None, reads: dict[str, CountedRead] | None = None
) -> list[BudgetStatus]:
    """Each budget with what was spent against it in a month (default: the user's current month).

    Spending is the money that counts (assets.selectors.spending_read: no transfers, no excluded rows, splits
    by part, other currencies converted at each row's day). One aggregate query for every currency in use (and
    one read of the rates when another currency appears), never one per budget; none for a currency whose
    month's counted read the caller already has (`reads`: {currency: CountedRead}, the home's).
    """
    budgets = list(budget_list(user=user) if budgets is None else budgets)
    if month is None:
        today = user_today(user)
        month = (today.year, today.month)
    first, last = month_bounds(*month)
    reads = dict(reads or {})
    unread = {b.currency for b in budgets} - set(reads)
    if unread:
        reads.update(spending_reads(user=user, currencies=unread, since=first, until=last))
    totals = {currency: read.by_category() for currency, read in reads.items()}
    out = []
    for budget in budgets:
        c, read = budget.currency, reads[budget.currency]
        spent = quantize(totals[c].get(budget.category, Decimal(0)), c)
        remaining = quantize(budget.amount - spent, c)
        missing = tuple(missing_summary(read.missing_of(category=budget.category)))
        converted = tuple(conversion_summary(read.conversions_of(category=budget.category)))
        out.append(BudgetStatus(budget, spent, remaining, rate_missing=missing, converted=converted))
    return out


def budget_rows(*, user_ids: list[int]) -> list[tuple]:
    """Every budget of these users in one query, for the nightly jobs, as named rows
    (user_id, category, amount, currency)."""
    rows = Budget.objects.filter(user_id__in=list(user_ids)).order_by("id")
    return list(rows.values_list("user_id", "category", "amount", "currency", named=True))

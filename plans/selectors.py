"""Reads of plans and of their months' ledgers; the figures themselves are plans/state.py's."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import OuterRef, QuerySet, Sum
from django.utils.translation import gettext as _

from assets import categories
from assets.ledger.totals import CountedRead, conversion_summary, counted_read, missing_summary
from assets.models import Transaction
from plans import math as pm
from plans import recurring
from plans.models import MonthlyPlan, PlanEntry, PlanRevision, Rebalance
from plans.state import Ledger, PlanGlance, PlanState, PlanSummary, fixed_categories, glance_of, state_of, summary_of
from zeus.errors import NotFound
from zeus.money import to_minor
from zeus.queries import AnyOf


def _plans() -> QuerySet[MonthlyPlan]:
    # Each plan read carries the warning states its accepted rebalances answered, as one array column of the
    # plan's own row, and its goal entries' total summed over a join, so a page of plans (and its ledgers) needs
    # no query a plan and none for the entries. The entries are the read's one join to many rows: a second would
    # multiply the sum, so the rebalances stay a subquery.
    answered = ArraySubquery(Rebalance.objects.filter(plan=OuterRef("pk")).order_by().values("warning_state"))
    return (
        MonthlyPlan.objects.select_related("primary_goal")
        .prefetch_related("fixed_expenses")
        .annotate(answered_states=answered, goal_entries_total=Sum("entries__amount", default=0))
    )


def answered_states(plan: MonthlyPlan) -> list[str]:
    """The warning states the plan's accepted rebalances answered: from the read's column when the plan came
    from plan_list, plan_get or plan_current, else one query."""
    if hasattr(plan, "answered_states"):
        return plan.answered_states
    return list(plan.rebalances.values_list("warning_state", flat=True))


def plan_list(*, user) -> QuerySet[MonthlyPlan]:
    """The user's plans with their goal, fixed expenses and the warning states their accepted rebalances
    answered: two queries for a page of any length."""
    return _plans().filter(user=user)


def _plan_id(plan_id) -> int:
    try:
        plan_id = int(plan_id)
    except (TypeError, ValueError):
        raise NotFound(_("No such plan.")) from None
    if not -(2**63) <= plan_id < 2**63:
        raise NotFound(_("No such plan."))
    return plan_id


def plan_get(*, user, plan_id) -> MonthlyPlan:
    """One plan as plan_list reads it: two queries. By its id alone, so unordered (`first()` would sort it)."""
    try:
        return plan_list(user=user).get(id=_plan_id(plan_id))
    except MonthlyPlan.DoesNotExist:
        raise NotFound(_("No such plan.")) from None


def plan_current(*, user, today: dt.date, annotations: dict | None = None) -> MonthlyPlan | None:
    """This month's active plan, else this month's newest draft, read as plan_get reads a plan, with
    `annotations` added to its row (the home's: plans.forecast_plan.forecast_facts)."""
    return plans_current(today_of={user.pk: today}, annotations=annotations)[user.pk]


def plans_current(*, today_of: dict[int, dt.date], annotations: dict | None = None) -> dict[int, MonthlyPlan | None]:
    """plan_current for many users (user id: their today), in two queries: a job's batch."""
    if not today_of:
        return {}  # the home's forecast, given the plan the page read, asks for nobody's: no query to build
    months = {pm.month_first(today) for today in today_of.values()}
    plans = (
        _plans()
        .annotate(**(annotations or {}))
        .filter(
            AnyOf("user_id", today_of),
            month__in=months,
            status__in=[MonthlyPlan.Status.ACTIVE, MonthlyPlan.Status.DRAFT],
        )
    )
    mine = defaultdict(list)
    for plan in plans:
        if plan.month == pm.month_first(today_of[plan.user_id]):
            mine[plan.user_id].append(plan)
    key = lambda p: (p.status != MonthlyPlan.Status.ACTIVE, -p.id)  # noqa: E731
    return {user_id: min(mine[user_id], key=key, default=None) for user_id in today_of}


def plan_revisions(*, plan: MonthlyPlan) -> QuerySet[PlanRevision]:
    """The edits of a plan in force, newest first."""
    return PlanRevision.objects.filter(plan=plan)


# A plan's month


def plan_ledger(plan: MonthlyPlan) -> Ledger:
    return plan_ledgers([plan])[plan.id]


def plan_ledgers(plans: list[MonthlyPlan]) -> dict[int, Ledger]:
    """The ledgers of many plans (of many users: a page of the list or a job's batch): two queries however
    many plans, and however long their users' histories (one more per further currency the plans are kept in,
    and one read of the rates when a row in another currency appears). The spending is the money that counts
    (assets.ledger.totals: no transfers, no excluded rows, splits by part, other currencies converted at each
    row's day, rows with no rate left out); each plan takes the days of its own month."""
    plans = list(plans)
    if not plans:
        return {}
    by_user: dict[tuple[int, str], CountedRead] = {}
    for currency in {p.currency for p in plans}:
        mine = [p for p in plans if p.currency == currency]
        reads = counted_read(
            user_ids={p.user_id for p in mine},
            currency=currency,
            since=min(p.month for p in mine),
            until=max(pm.month_last(p.month) for p in mine),
        )
        for user_id, read in reads.items():
            by_user[user_id, currency] = read
    goal = _goal_entries(plans)
    # A page of the list holds plans of many months, each user's read spanning them all: each plan sums only
    # its own month's groups, parted from the read in one pass (summed from the whole read, a page of 50
    # monthly plans went over every month's groups 50 times).
    months_of: dict[tuple[int, str], set[dt.date]] = defaultdict(set)
    for p in plans:
        months_of[p.user_id, p.currency].add(p.month)
    parts = {key: _months_of(by_user[key], months) for key, months in months_of.items()}
    return {p.id: _ledger_of(p, parts[p.user_id, p.currency][p.month], goal.get(p.id, 0)) for p in plans}


def _months_of(read: CountedRead, months: set[dt.date]) -> dict[dt.date, CountedRead]:
    """The read's groups and the groups it could not convert, parted by the months asked (each a first of
    month): one pass however many months. The read of a single month's plans is that month's as it is
    (_ledger_of keeps the month's days)."""
    if len(months) == 1:
        return dict.fromkeys(months, read)
    parts = {month: CountedRead(currency=read.currency) for month in months}
    for group in read.groups:
        part = parts.get(group.day.replace(day=1))
        if part is not None:
            part.groups.append(group)
    for item, key in zip(read.missing, read.missing_keys, strict=True):
        part = parts.get(item.day.replace(day=1))
        if part is not None:
            part.missing.append(item)
            part.missing_keys.append(key)
    return parts


def plan_ledger_of(plan: MonthlyPlan, *, read: CountedRead) -> Ledger:
    """plan_ledger's Ledger from a read of the plan's month the caller has made already (its money that counts
    per day in the plan's currency, first to last day: the home's ledger summary), reading only the goal
    entries' total, and that only when the plan did not come through _plans."""
    return _ledger_of(plan, read, _goal_entries([plan]).get(plan.id, 0))


def _goal_entries(plans: list[MonthlyPlan]) -> dict[int, object]:
    """Each plan's goal entries' total: from the read's column when the plan came through _plans (plan_list,
    plan_get, plans_current), else one query for the others."""
    goal = {p.id: p.goal_entries_total for p in plans if hasattr(p, "goal_entries_total")}
    unread = [p.id for p in plans if p.id not in goal]
    if unread:
        goal.update(
            PlanEntry.objects.filter(plan_id__in=unread).values_list("plan_id").annotate(total=Sum("amount")).order_by()
        )
    return goal


def _ledger_of(plan: MonthlyPlan, read: CountedRead, goal_total) -> Ledger:
    """A plan's Ledger from its user's counted read in its currency (per direction, category and day) and its
    goal entries' total: the month's expenses per category, and per day its discretionary ones outside the
    plan's fixed categories, each summed before it becomes minor units. One pass over the read's groups: a
    long history's month holds a group per category and day."""
    c, first, last = plan.currency, plan.month, pm.month_last(plan.month)
    per_day = set(categories.DISCRETIONARY) - fixed_categories(plan)
    expense = Transaction.Direction.EXPENSE
    by_category, by_day, converted = defaultdict(int), defaultdict(int), []
    for group in read.groups:
        if group.direction != expense or not first <= group.day <= last:
            continue
        by_category[group.category] += group.amount
        if group.conversion is not None:
            converted.append(group.conversion)
        if group.category in per_day:
            by_day[group.day] += group.amount
    ledger = Ledger(
        expenses_by_category={category: to_minor(total, c) for category, total in by_category.items()},
        converted=conversion_summary(converted),
        rate_missing=missing_summary(m for m in read.missing_of() if first <= m.day <= last),
    )
    for day, total in by_day.items():
        ledger.discretionary_by_day[day] += to_minor(total, c)
    ledger.goal_entries = to_minor(goal_total, c)
    return ledger


# What the views show


@dataclass(frozen=True)
class PlanDetail:
    plan: MonthlyPlan
    ledger: Ledger
    bills: list[recurring.RecurringCharge]  # bills_still_due's


def plan_detail(*, user, plan_id, today: dt.date) -> PlanDetail:
    """plan_get's plan, plan_ledger's ledger and bills_still_due's bills as of `today`."""
    plan = plan_get(user=user, plan_id=plan_id)
    bills = recurring.bills_still_due(
        user=user, currency=plan.currency, today=today, month_last=pm.month_last(plan.month)
    )
    return PlanDetail(plan=plan, ledger=plan_ledger(plan), bills=bills)


def plan_details(*, user, plans: list[MonthlyPlan], today: dt.date) -> list[PlanDetail]:
    """A page of plan_list's plans with their ledgers and bills: three queries for any number of plans."""
    ledgers = plan_ledgers(plans)
    bills = recurring.bills_by_plan(user=user, plans=plans, today=today)
    return [PlanDetail(plan=p, ledger=ledgers[p.id], bills=bills[p.id]) for p in plans]


def plan_state(plan: MonthlyPlan, *, today: dt.date, ledger: Ledger | None = None) -> PlanState:
    ledger = ledger if ledger is not None else plan_ledger(plan)
    return state_of(plan, today=today, ledger=ledger, answered_states=answered_states(plan))


def plan_glance(plan: MonthlyPlan, *, today: dt.date, ledger: Ledger) -> PlanGlance:
    return glance_of(plan, today=today, ledger=ledger)


def plan_summaries(*, today_by_user: dict[int, dt.date]) -> dict[int, PlanSummary]:
    """For each user with an active plan for their month: its summary as of their today. One query when
    none has a plan, four for any number of users otherwise (the plans, their fixed expenses, plan_ledgers)."""
    if not today_by_user:
        return {}
    months = {pm.month_first(today) for today in today_by_user.values()}
    plans = [
        p
        for p in MonthlyPlan.objects.filter(
            AnyOf("user_id", today_by_user), status=MonthlyPlan.Status.ACTIVE, month__in=months
        ).prefetch_related("fixed_expenses")
        if p.month == pm.month_first(today_by_user[p.user_id])
    ]
    ledgers = plan_ledgers(plans)
    return {p.user_id: summary_of(p, today=today_by_user[p.user_id], ledger=ledgers[p.id]) for p in plans}

"""Reads of plans, and a plan's figures as of a day (the arithmetic of plans/math.py over its ledger)."""

import datetime as dt
import functools
import json
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import connections
from django.db.models import Exists, F, OuterRef, QuerySet, Sum, Value
from django.db.models.expressions import RawSQL

from assets import categories
from assets.selectors import expense_totals_per_category_query, expense_totals_per_day_query
from plans import math as pm
from plans import recurring
from plans.models import FixedExpense, MonthlyPlan, PlanEntry, Rebalance
from zeus.adapters import set_prefetched
from zeus.batch import arrays_supported
from zeus.errors import NotFound
from zeus.money import from_minor, to_minor
from zeus.prepared import Prepared, correlated_rows

# A plan read by plan_list carries, for each warning state, whether an accepted rebalance answered it: a
# column of the plan's own row (an indexed EXISTS on the (plan, warning_state) constraint), not a query.
_ANSWERED = {f"answered_{state}": state for state in pm.WARNING_STATES}


# Made once: annotate() resolves a copy of each, so the same expressions serve every query.
_ANSWER_COLUMNS = {
    name: Exists(Rebalance.objects.filter(plan=OuterRef("pk"), warning_state=state))
    for name, state in _ANSWERED.items()
}


def _with_answers(plans: QuerySet[MonthlyPlan]) -> QuerySet[MonthlyPlan]:
    return plans.annotate(**_ANSWER_COLUMNS)


def answered_states(plan: MonthlyPlan) -> list[str]:
    """The warning states the plan's accepted rebalances answered: from plan_list's columns when the plan came
    from it, else one query."""
    if hasattr(plan, "answered_on_track"):
        return [state for name, state in _ANSWERED.items() if getattr(plan, name)]
    return list(plan.rebalances.values_list("warning_state", flat=True))


@functools.cache
def _plans_with_answers() -> QuerySet[MonthlyPlan]:
    # Built once and never run itself: each call of plan_list filters a clone, since resolving the four EXISTS
    # columns cost the plan list's every request more than its first page's read.
    return _with_answers(MonthlyPlan.objects.select_related("primary_goal")).prefetch_related("fixed_expenses")


def plan_list(*, user) -> QuerySet[MonthlyPlan]:
    """The user's plans with their goal, fixed expenses and the warning states their accepted rebalances
    answered: a fixed number of queries for a page of any length."""
    return _plans_with_answers().filter(user=user)


# plan_get's two reads, compiled once (zeus/prepared.py): building them cost more than running them.
_PLAN_READ = Prepared(
    lambda user_id, plan_id: _with_answers(
        MonthlyPlan.objects.filter(user_id=user_id, id=plan_id).select_related("primary_goal")
    ),
    int,
    int,
)
_FIXED_READ = Prepared(lambda plan_id: FixedExpense.objects.filter(plan_id=plan_id), int)


# The plan list's first page, one prepared read per page size (its LIMIT is part of the SQL).
_FIRST_PAGES: dict[int, Prepared] = {}


def plan_list_first(*, user, limit: int) -> list[MonthlyPlan]:
    """The first `limit` plans of plan_list in its page order (newest month first, then newest id), each with
    its goal, its answered states and its fixed expenses (prefetched): what a page of the list reads when it
    has no cursor, in two queries however many plans it holds."""
    read = _FIRST_PAGES.get(limit)
    if read is None:
        read = _FIRST_PAGES.setdefault(
            limit,
            Prepared(
                lambda user_id: _with_answers(
                    MonthlyPlan.objects.filter(user_id=user_id).select_related("primary_goal")
                ).order_by("-month", "-id")[:limit],
                int,
            ),
        )
    plans = read.run(user.pk)
    fixed_expenses_attach(plans)
    return plans


def fixed_expenses_attach(plans: list[MonthlyPlan]) -> None:
    """Each plan's fixed expenses, as prefetch_related("fixed_expenses") leaves them (the related manager
    answers from the list): one query for any number of plans, prepared for one."""
    if len(plans) == 1:
        lines = _FIXED_READ.run(plans[0].id)
    else:
        lines = list(FixedExpense.objects.filter(plan_id__in=[p.id for p in plans])) if plans else []
    by_plan = defaultdict(list)
    for line in lines:
        by_plan[line.plan_id].append(line)
    for plan in plans:
        set_prefetched(plan, "fixed_expenses", by_plan[plan.id])


def _plan_id(plan_id) -> int:
    try:
        plan_id = int(plan_id)
    except (TypeError, ValueError):
        raise NotFound("No such plan.") from None
    if not -(2**63) <= plan_id < 2**63:
        raise NotFound("No such plan.")
    return plan_id


def plan_get(*, user, plan_id) -> MonthlyPlan:
    """One plan as plan_list reads it (its goal, its fixed expenses prefetched, its answered states): two
    queries."""
    found = _PLAN_READ.run(user.pk, _plan_id(plan_id))
    if not found:
        raise NotFound("No such plan.")
    plan = found[0]
    fixed_expenses_attach([plan])
    return plan


# plan_current's read, compiled once like plan_get's (the home asks it on every load).
_CURRENT_READ = Prepared(
    lambda user_id, first: _with_answers(
        MonthlyPlan.objects.filter(
            user_id=user_id, month=first, status__in=[MonthlyPlan.Status.ACTIVE, MonthlyPlan.Status.DRAFT]
        ).select_related("primary_goal")
    ),
    int,
    dt.date,
)


def plan_current(*, user, today: dt.date) -> MonthlyPlan | None:
    """This month's active plan, else this month's newest draft, read as plan_get reads a plan (two
    queries, one if there is none)."""
    plans = _CURRENT_READ.run(user.pk, pm.month_first(today))
    plan = min(plans, key=lambda p: (p.status != MonthlyPlan.Status.ACTIVE, -p.id), default=None)
    if plan is not None:
        fixed_expenses_attach([plan])
    return plan


@dataclass
class Ledger:
    """What happened in a plan's month, in minor units: expenses per category, discretionary spend per day
    (transactions and entries), and the entries' totals."""

    expenses_by_category: dict[str, int] = field(default_factory=dict)
    discretionary_by_day: dict[dt.date, int] = field(default_factory=lambda: defaultdict(int))
    discretionary_entries: int = 0
    goal_entries: int = 0


def _fixed_categories(plan: MonthlyPlan) -> set[str]:
    return {line.category for line in plan.fixed_expenses.all()}


_SPENT, _ENTRY = "spent", "entry"  # the `source` of _plan_month's rows: an expense total or an entry total


def _plan_month(user_id, currency: str, month: dt.date, month_last: dt.date, plan_id) -> QuerySet:
    """One plan's month as the database sums it, not a row per category and day: its expenses per category
    (`day` NULL), its discretionary expenses (less its fixed categories) per day (`label` empty), and its
    entries per kind and day (`label` the kind), as one UNION ALL of (label, day, value, source) rows;
    _ledger_of reads them."""
    spent = Value(_SPENT)
    per_category = expense_totals_per_category_query(
        user_id=user_id, currency=currency, month=month, month_last=month_last
    )
    per_day = expense_totals_per_day_query(
        user_id=user_id,
        currency=currency,
        since=month,
        until=month_last,
        category_in=categories.DISCRETIONARY,
        category_not_in=FixedExpense.objects.filter(plan_id=plan_id).values("category").order_by(),
    )
    entries = (
        PlanEntry.objects.filter(plan_id=plan_id)
        .values(label=F("kind"), day=F("logged_on"))
        .annotate(value=Sum("amount"), source=Value(_ENTRY))
        .order_by()
    )
    return per_category.annotate(source=spent).union(per_day.annotate(source=spent), entries, all=True)


def _ledger_of(rows: list[dict], currency: str) -> Ledger:
    """A Ledger from _plan_month's rows."""
    ledger = Ledger()
    by_day = ledger.discretionary_by_day
    for row in rows:
        units, label, day = to_minor(row["value"], currency), row["label"], row["day"]
        if row["source"] == _SPENT:
            if day is None:
                ledger.expenses_by_category[label] = units
            else:
                by_day[day] += units
        elif label == PlanEntry.Kind.GOAL:
            ledger.goal_entries += units
        else:
            ledger.discretionary_entries += units
            by_day[day] += units
    return ledger


# One plan's month, compiled once (zeus/prepared.py): the plan view, a page of the plan list and the home page
# read one plan's ledger on every request.
_MONTH_READ = Prepared(_plan_month, int, str, dt.date, dt.date, int)


def plan_ledger(plan: MonthlyPlan) -> Ledger:
    """One plan's ledger: one aggregate query (_plan_month)."""
    return plan_ledgers([plan])[plan.id]


def plan_ledgers(plans: list[MonthlyPlan]) -> dict[int, Ledger]:
    """The ledgers of many plans (of many users), one plan or a job batch alike: each plan's month as the
    database sums it (_plan_month). On PostgreSQL any number of plans is one query (each month a JSON column of
    its plan's row); elsewhere one query a plan."""
    plans = list(plans)
    if len(plans) == 1 or connections[MonthlyPlan.objects.db].vendor != "postgresql":
        return {
            p.id: _ledger_of(_MONTH_READ.run(p.user_id, p.currency, p.month, pm.month_last(p.month), p.id), p.currency)
            for p in plans
        }
    currencies = {p.id: p.currency for p in plans}
    ledgers = {plan_id: Ledger() for plan_id in currencies}  # a plan deleted meanwhile: an empty month
    months = MonthlyPlan.objects.filter(id__in=list(currencies)).annotate(month_rows=_month_column())
    for plan_id, text in months.order_by().values_list("id", "month_rows"):
        ledgers[plan_id] = _ledger_of(_dated(_json_rows(text)), currencies[plan_id])
    return ledgers


def _plan_column(name: str) -> str:
    return f'"{MonthlyPlan._meta.db_table}"."{name}"'


# Stand-ins for the plan row's columns while its children's querysets are compiled (correlated_rows).
_OUTER_USER, _OUTER_PLAN, _OUTER_CURRENCY = -7_340_112_984_001, -7_340_112_984_002, "\ue000zeus-plan-currency\ue000"
_OUTER_MONTH, _OUTER_MONTH_LAST = dt.date(1112, 1, 1), dt.date(1112, 1, 2)


_OUTER = {
    _OUTER_USER: _plan_column("user_id"),
    _OUTER_PLAN: _plan_column("id"),
    _OUTER_CURRENCY: _plan_column("currency"),
    _OUTER_MONTH: _plan_column("month"),
    _OUTER_MONTH_LAST: f"(({_plan_column('month')} + interval '1 month')::date - 1)",
}


@functools.cache
def _month_column() -> RawSQL:
    """A plan's month (_plan_month) as a JSON column of its row; made once (annotate() resolves a copy)."""
    return correlated_rows(
        _plan_month(_OUTER_USER, _OUTER_CURRENCY, _OUTER_MONTH, _OUTER_MONTH_LAST, _OUTER_PLAN), _OUTER
    )


def _dated(rows: list[dict]) -> list[dict]:
    """_plan_month's rows read from JSON, their days dates again."""
    for row in rows:
        row["day"] = row["day"] and dt.date.fromisoformat(row["day"])
    return rows


def _with_children(plans: QuerySet[MonthlyPlan], today) -> QuerySet[MonthlyPlan]:
    """`plans` with each plan's answered warning states, fixed expenses, month's ledger rows and bills due from
    `today` through its month's end as JSON columns of its row (_detail_of reads them)."""
    fixed = FixedExpense.objects.filter(plan_id=_OUTER_PLAN).order_by()  # ordered as it is read
    # `today` stays a parameter of the bills' reads: the Prepared binds it on each run.
    bills = {
        f"bills_rows_{index}": correlated_rows(
            read.query(_OUTER_USER, today, _OUTER_MONTH_LAST),
            {_OUTER_USER: _OUTER[_OUTER_USER], _OUTER_MONTH_LAST: _OUTER[_OUTER_MONTH_LAST]},
        )
        for index, read in enumerate(recurring.due_reads())
    }
    answered = Rebalance.objects.filter(plan_id=_OUTER_PLAN).values("warning_state").order_by()
    return plans.annotate(
        # The states its rebalances answered, as a list: shorter than _with_answers' four EXISTS columns.
        answered_rows=correlated_rows(answered, {_OUTER_PLAN: _OUTER[_OUTER_PLAN]}),
        fixed_rows=correlated_rows(fixed, {_OUTER_PLAN: _OUTER[_OUTER_PLAN]}),
        month_rows=_month_column(),
        **bills,
    )


# What the API's plan reads leave out: the timestamps the view does not show, and of the goal all but what
# plan_goal_need reads. The detail's statement stays under the length up to which psycopg keeps a query's parse
# (4 KiB), which it otherwise redoes on every run (40 us for this one, measured).
_UNSHOWN = (
    *("completed_at", "created_at", "updated_at"),
    *(f"primary_goal__{name}" for name in ("user", "name", "kind", "currency", "deadline", "status", "started_on")),
    *("primary_goal__created_at", "primary_goal__updated_at"),
)


def _detail_read(user_id, plan_id, today):
    plan = MonthlyPlan.objects.filter(user_id=user_id, id=plan_id).select_related("primary_goal").defer(*_UNSHOWN)
    return _with_children(plan.order_by(), today)  # one row: no ordering


# What the plan view shows of one plan, in one statement compiled once: the plan row as plan_get reads it (less
# _UNSHOWN), with its answered states, its fixed expenses, its month (_plan_month) and the recurring bills due
# from today through its month's end (plans/recurring.py's due reads) as JSON columns of that row. Each round trip
# cost the view more than PostgreSQL took to answer it.
_DETAIL_READ = Prepared(_detail_read, int, int, dt.date)

_FIXED_FIELDS = [f.attname for f in FixedExpense._meta.concrete_fields]


@dataclass(frozen=True)
class PlanDetail:
    plan: MonthlyPlan
    ledger: Ledger
    bills: list[recurring.RecurringCharge]  # bills_still_due's


_JSON = json.JSONDecoder(parse_float=Decimal)  # exact amounts; made once (json.loads with options makes one a call)


def _json_rows(text: str | None) -> list[dict]:
    return _JSON.decode(text) if text else []


def plan_detail(*, user, plan_id, today: dt.date) -> PlanDetail:
    """plan_get's plan (its goal, its fixed expenses prefetched, its answered states), plan_ledger's ledger
    and bills_still_due's bills as of `today`, in one query (the statement is PostgreSQL's; another database
    makes the separate reads)."""
    if connections[MonthlyPlan.objects.db].vendor != "postgresql":
        plan = plan_get(user=user, plan_id=plan_id)
        bills = recurring.bills_still_due(
            user=user, currency=plan.currency, today=today, month_last=pm.month_last(plan.month)
        )
        return PlanDetail(plan=plan, ledger=plan_ledger(plan), bills=bills)
    found = _DETAIL_READ.run(user.pk, _plan_id(plan_id), today)
    if not found:
        raise NotFound("No such plan.")
    return _detail_of(found[0])


def _detail_of(plan: MonthlyPlan) -> PlanDetail:
    """A plan read with _with_children: its answered states and fixed expenses as plan_list leaves them, its
    ledger and its bills."""
    answered = {row["warning_state"] for row in _json_rows(plan.answered_rows)}
    for name, state in _ANSWERED.items():
        setattr(plan, name, state in answered)
    lines = [
        FixedExpense.from_db(MonthlyPlan.objects.db, _FIXED_FIELDS, [row[name] for name in _FIXED_FIELDS])
        for row in _json_rows(plan.fixed_rows)
    ]
    lines.sort(key=lambda line: (line.position, line.id))  # FixedExpense's ordering
    set_prefetched(plan, "fixed_expenses", lines)
    charges = [
        read.charge(row)
        for index, read in enumerate(recurring.due_reads())
        for row in _json_rows(getattr(plan, f"bills_rows_{index}"))
    ]
    ledger = _ledger_of(_dated(_json_rows(plan.month_rows)), plan.currency)
    return PlanDetail(plan=plan, ledger=ledger, bills=recurring.bills_in_currency(charges, plan.currency))


# The plan list's first page with each plan's children, one prepared read per page size (as _FIRST_PAGES).
_FIRST_DETAILS: dict[int, Prepared] = {}


def plan_list_first_details(*, user, limit: int, today: dt.date) -> list[PlanDetail]:
    """plan_list_first's plans, each with plan_detail's ledger and bills as of `today`: one query for a page
    of any length on PostgreSQL (elsewhere plan_list_first, plan_ledgers and bills_by_plan)."""
    if connections[MonthlyPlan.objects.db].vendor != "postgresql":
        plans = plan_list_first(user=user, limit=limit)
        ledgers = plan_ledgers(plans)
        bills = recurring.bills_by_plan(user=user, plans=plans, today=today)
        return [PlanDetail(plan=p, ledger=ledgers[p.id], bills=bills[p.id]) for p in plans]
    read = _FIRST_DETAILS.get(limit)
    if read is None:
        read = _FIRST_DETAILS.setdefault(
            limit,
            Prepared(
                lambda user_id, today: _with_children(
                    MonthlyPlan.objects.filter(user_id=user_id).select_related("primary_goal").defer(*_UNSHOWN),
                    today,
                ).order_by("-month", "-id")[:limit],
                int,
                dt.date,
            ),
        )
    return [_detail_of(plan) for plan in read.run(user.pk, today)]


@dataclass(frozen=True)
class PlanState:
    """A plan's figures as of `today` (the user's local date), all in minor units."""

    plan: MonthlyPlan
    today: dt.date
    allocations: pm.Allocations
    actuals: pm.Actuals
    guide: pm.DailyGuide
    warning: str
    dismissed: bool
    streak: int
    recommendation: pm.Recommendation | None
    discretionary_by_day: dict

    @property
    def safe_left(self) -> int:
        return self.allocations.safe - self.actuals.discretionary


def plan_allocations(plan: MonthlyPlan) -> pm.Allocations:
    c = plan.currency
    return pm.Allocations(
        fixed=to_minor(plan.alloc_fixed, c),
        essential=to_minor(plan.alloc_essential, c),
        goal=to_minor(plan.alloc_goal, c),
        safe=to_minor(plan.alloc_safe, c),
    )


def plan_goal_need(plan: MonthlyPlan, *, goal_entries: int) -> int | None:
    """What the primary goal still needed when this plan's contributions began: the goal's remaining amount
    plus what this plan already added to it (goal entries raise the goal's current amount)."""
    goal = plan.primary_goal
    if goal is None:
        return None
    remaining = to_minor(max(goal.target_amount - goal.current_amount, Decimal(0)), plan.currency)
    return remaining + goal_entries


def _month_so_far(plan: MonthlyPlan, ledger: Ledger, today: dt.date):
    """The plan's arithmetic up to today, shared by the whole state and the jobs' summaries: allocations,
    bucket actuals, discretionary spend by day, today's guide and the warning."""
    allocations = plan_allocations(plan)
    actuals = pm.bucket_actuals(
        expenses_by_category=ledger.expenses_by_category,
        fixed_categories=_fixed_categories(plan),
        essential_categories=categories.ESSENTIAL,
        discretionary_categories=categories.DISCRETIONARY,
        discretionary_entries=ledger.discretionary_entries,
        goal_entries=ledger.goal_entries,
    )
    by_day = dict(ledger.discretionary_by_day)
    guide = pm.daily_guide(safe=allocations.safe, first=plan.month, today=today, discretionary_by_day=by_day)
    warning = pm.warning_state(allocations=allocations, actuals=actuals, first=plan.month, today=today)
    return allocations, actuals, by_day, guide, warning


def plan_state(plan: MonthlyPlan, *, today: dt.date, ledger: Ledger | None = None) -> PlanState:
    ledger = ledger if ledger is not None else plan_ledger(plan)
    allocations, actuals, by_day, guide, warning = _month_so_far(plan, ledger, today)
    recommendation = None
    if plan.status == MonthlyPlan.Status.ACTIVE and today <= pm.month_last(plan.month):
        need = plan_goal_need(plan, goal_entries=ledger.goal_entries)
        recommendation = pm.recommend(
            allocations=allocations,
            actuals=actuals,
            first=plan.month,
            today=today,
            discretionary_by_day=by_day,
            answered_states=answered_states(plan),
            goal_room=None if need is None else need - allocations.goal,
        )
    return PlanState(
        plan=plan,
        today=today,
        allocations=allocations,
        actuals=actuals,
        guide=guide,
        warning=warning,
        dismissed=bool(plan.dismissed_warning) and plan.dismissed_warning == warning,
        streak=pm.streak(
            safe=allocations.safe,
            first=plan.month,
            activated_on=plan.activated_on,
            today=today,
            discretionary_by_day=by_day,
        ),
        recommendation=recommendation,
        discretionary_by_day=by_day,
    )


@dataclass(frozen=True)
class PlanGlance:
    """What the home shows of a plan, in minor units: plan_state's guide, safe_left and warning."""

    guide: pm.DailyGuide
    safe_left: int
    warning: str


def plan_glance(plan: MonthlyPlan, *, today: dt.date, ledger: Ledger) -> PlanGlance:
    """Today's guide, the safe-to-spend left and the warning, as plan_state gives them, without the
    recommendation and the streak the home does not show (they are most of plan_state's arithmetic)."""
    allocations, actuals, _by_day, guide, warning = _month_so_far(plan, ledger, today)
    return PlanGlance(guide=guide, safe_left=allocations.safe - actuals.discretionary, warning=warning)


@dataclass(frozen=True)
class PlanSummary:
    """A user's active plan for their month as of their today, in the plan's currency (Decimal)."""

    plan_id: int
    currency: str
    safe_left: Decimal  # the safe-to-spend allocation less the discretionary spent so far, never below zero
    guide: Decimal  # today's daily guide
    warning: str
    streak: int


def plan_summaries(*, today_by_user: dict[int, dt.date]) -> dict[int, PlanSummary]:
    """For each user with an active plan for their month: its state as of their today. Three queries for
    any number of users (the plans, then plan_ledgers); no per-plan reads."""
    if not today_by_user:
        return {}
    months = {pm.month_first(today) for today in today_by_user.values()}
    plans = [
        p
        for p in MonthlyPlan.objects.filter(
            user_id__in=list(today_by_user), status=MonthlyPlan.Status.ACTIVE, month__in=months
        ).prefetch_related("fixed_expenses")
        if p.month == pm.month_first(today_by_user[p.user_id])
    ]
    ledgers = plan_ledgers(plans)
    out = {}
    for plan in plans:
        ledger, today, c = ledgers[plan.id], today_by_user[plan.user_id], plan.currency
        allocations, actuals, by_day, guide, warning = _month_so_far(plan, ledger, today)
        out[plan.user_id] = PlanSummary(
            plan_id=plan.id,
            currency=c,
            safe_left=from_minor(max(0, allocations.safe - actuals.discretionary), c),
            guide=from_minor(guide.guide, c),
            warning=warning,
            streak=pm.streak(
                safe=allocations.safe,
                first=plan.month,
                activated_on=plan.activated_on,
                today=today,
                discretionary_by_day=by_day,
            ),
        )
    return out


def active_plans_query(*, user_ids, months):
    """The active plans of these users for these months, unevaluated and with only their id and user read:
    a `Model.objects.raw` a batch job sends with its other small reads in one round trip (zeus/batch.py) to
    learn which users plan_summaries need be asked for."""
    if not arrays_supported():
        plans = MonthlyPlan.objects.filter(user_id__in=list(user_ids), status=MonthlyPlan.Status.ACTIVE)
        return plans.filter(month__in=sorted(months)).only("id", "user_id").order_by()
    sql = (
        f"SELECT id, user_id FROM {MonthlyPlan._meta.db_table} "
        "WHERE user_id = ANY(%s) AND status = %s AND month = ANY(%s)"
    )
    return MonthlyPlan.objects.raw(sql, [list(user_ids), MonthlyPlan.Status.ACTIVE, sorted(months)])

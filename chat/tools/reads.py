"""Read tools: the user's own ledger, budgets, goals and suggestions, through the domain selectors."""

import datetime as dt
import re
from decimal import Decimal

from django.utils.translation import gettext

from assets.ledger.selectors import transaction_ledgers, with_ledger_flags
from assets.ledger.shapes import conversions_json, rate_missing_json
from assets.ledger.totals import conversion_summary, missing_summary
from assets.selectors import (
    asset_list,
    linked_account_list,
    spending_read,
    transaction_list,
)
from chat import cards
from chat.tools.base import (
    CATEGORY,
    DATE,
    DIRECTION,
    READ,
    WORKFLOWS,
    Tool,
    ToolContext,
    asset_out,
    goal_out,
    money,
    schema,
    transaction_out,
)
from goals.selectors import budget_statuses, goal_list, goal_progress_of
from suggestions.recurring.selectors import recurring_list, recurring_to_dict
from suggestions.selectors import suggestion_list_active, suggestion_to_dict
from zeus.errors import ValidationFailed
from zeus.money import quantize
from zeus.timeutil import month_bounds, parse_date

SOURCE = {"type": "string", "enum": ["all", "manual", "synced"]}
LIMIT = {"type": "integer", "minimum": 1, "maximum": 100}


def list_transactions(ctx: ToolContext, args: dict) -> dict:
    limit = int(args.get("limit", 20))  # the schema lets 20.0 through as an integer
    # The schema checks the values but a date's only by its shape: 2026-02-30 is refused here, by name.
    listed = transaction_list(
        user=ctx.user,
        since=parse_date(args["since"], "since") if args.get("since") else None,
        until=parse_date(args["until"], "until") if args.get("until") else None,
        category=args.get("category"),
        direction=args.get("direction"),
        source=args.get("source", "all"),
    )
    rows = list(with_ledger_flags(listed)[: limit + 1])
    shown = rows[:limit]
    ledgers = transaction_ledgers(user=ctx.user, rows=shown)
    return {
        "transactions": [transaction_out(t, ledger=ledgers[t.id]) for t in shown],
        "count": min(len(rows), limit),
        "has_more": len(rows) > limit,
    }


def list_linked_accounts(ctx: ToolContext, args: dict) -> dict:
    return {
        "linked_accounts": [
            {
                "id": a.id,
                "institution": a.institution,
                "name": a.name,
                "masked_number": a.masked_number,
                "balance": money(a.balance, a.currency),
                "currency": a.currency,
                "last_synced_at": a.last_synced_at.isoformat() if a.last_synced_at else None,
            }
            for a in linked_account_list(user=ctx.user)[:100]
        ]
    }


def list_assets(ctx: ToolContext, args: dict) -> dict:
    return {"assets": [asset_out(a) for a in asset_list(user=ctx.user, source=args.get("source", "all"))[:100]]}


_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def list_budgets(ctx: ToolContext, args: dict) -> dict:
    month = args.get("month") or f"{ctx.today.year:04d}-{ctx.today.month:02d}"
    match = _MONTH.match(month)
    if not match or not 1970 <= int(match[1]) <= 2200:
        raise ValidationFailed(
            gettext("month must be YYYY-MM."), code="INVALID_INPUT", fields={"month": [gettext("Use YYYY-MM.")]}
        )
    statuses = budget_statuses(user=ctx.user, month=(int(match[1]), int(match[2])))
    return {
        "month": month,
        "budgets": [
            {
                "id": s.budget.id,
                "category": s.budget.category,
                "amount": money(s.budget.amount, s.budget.currency),
                "spent": money(s.spent, s.budget.currency),
                "remaining": money(s.remaining, s.budget.currency),
                "currency": s.budget.currency,
                "converted": conversions_json(s.converted),
                "rate_missing": rate_missing_json(s.rate_missing),
            }
            for s in sorted(statuses, key=lambda s: s.budget.category)
        ],
    }


def list_goals(ctx: ToolContext, args: dict) -> dict:
    goals = goal_list(user=ctx.user, status=args.get("status", "all"))[:100]
    return {"goals": [goal_out(g, goal_progress_of(g, today=ctx.today)) for g in goals]}


def list_smart_suggestions(ctx: ToolContext, args: dict) -> dict:
    rows = suggestion_list_active(user=ctx.user, limit=int(args.get("limit", 10)))
    return {"suggestions": [suggestion_to_dict(s) for s in rows]}


PERIODS = ("this_month", "last_month", "last_30_days", "last_90_days")
GROUPS = ("category", "week", "day")


def period_bounds(period: str, today: dt.date) -> tuple[dt.date, dt.date]:
    if period == "this_month":
        return today.replace(day=1), today
    if period == "last_month":
        last_of_previous = today.replace(day=1) - dt.timedelta(days=1)
        return month_bounds(last_of_previous.year, last_of_previous.month)
    days = 30 if period == "last_30_days" else 90
    return today - dt.timedelta(days=days - 1), today


def summarize_spending(ctx: ToolContext, args: dict) -> dict:
    period = args.get("period", "this_month")
    group_by = args.get("group_by", "category")
    since, until = period_bounds(period, ctx.today)
    currency = ctx.currency
    # The money that counts, as on the pages: no transfers, no excluded rows, splits by part, other currencies
    # converted at each row's day; what no rate converts is named apart, never counted at 1:1.
    read = spending_read(user=ctx.user, currency=currency, since=since, until=until)
    if group_by == "category":
        totals = {c: quantize(v, currency) for c, v in read.by_category().items()}
        labelled = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    else:
        by_day = {d: quantize(v, currency) for d, v in read.by_day().items()}
        labelled = _by_week(by_day, since, until) if group_by == "week" else _by_day(by_day, since, until)
    total = sum((amount for _, amount in labelled), Decimal(0))
    return {
        "period": period,
        "since": since.isoformat(),
        "until": until.isoformat(),
        "group_by": group_by,
        "currency": currency,
        "total": money(total, currency),
        "groups": [{"label": label, "amount": money(amount, currency)} for label, amount in labelled],
        "converted": conversions_json(conversion_summary(read.conversions_of())),
        "rate_missing": rate_missing_json(missing_summary(read.missing_of())),
    }


def _by_day(by_day: dict, since: dt.date, until: dt.date) -> list[tuple[str, Decimal]]:
    days = (until - since).days + 1
    return [
        ((since + dt.timedelta(d)).isoformat(), by_day.get(since + dt.timedelta(d), Decimal(0))) for d in range(days)
    ]


def _by_week(by_day: dict, since: dt.date, until: dt.date) -> list[tuple[str, Decimal]]:
    """Weeks start on Monday; each is labelled by its first day inside the period."""
    weeks: dict[dt.date, Decimal] = {}
    day = since
    while day <= until:
        start = max(since, day - dt.timedelta(days=day.weekday()))
        weeks[start] = weeks.get(start, Decimal(0)) + by_day.get(day, Decimal(0))
        day += dt.timedelta(days=1)
    return [(start.isoformat(), total) for start, total in weeks.items()]


def list_recurring(ctx: ToolContext, args: dict) -> dict:
    """The user's recurring series (docs/recurring.md): what each costs a month and a year, and in all."""
    rows = list(
        recurring_list(
            user=ctx.user,
            status=args.get("status", "active"),
            kind=args.get("kind", "all"),
            due_within_days=args.get("due_within_days"),
        )[:100]
    )
    series = [recurring_to_dict(s) for s in rows]
    totals: dict[str, dict[str, Decimal]] = {}
    for s in series:
        if s["kind"] in ("income", "transfer") or s["status"] != "active":
            continue
        total = totals.setdefault(s["currency"], {"monthly": Decimal(0), "yearly": Decimal(0)})
        total["monthly"] += Decimal(s["monthly_cost"])
        total["yearly"] += Decimal(s["yearly_cost"])
    return {
        "series": series,
        "count": len(series),
        "status": args.get("status", "active"),
        "kind": args.get("kind", "all"),
        "due_within_days": args.get("due_within_days"),
        "totals": [
            {"currency": c, "monthly_cost": money(t["monthly"], c), "yearly_cost": money(t["yearly"], c)}
            for c, t in sorted(totals.items())
        ],
    }


TOOLS = (
    Tool(
        name="list_transactions",
        family=READ,
        workflows=("coach", "update", "delete", "inspect"),
        description=(
            "List the user's transactions, newest first, with optional filters. Synced transactions come from "
            "linked accounts and are read only (editable=false); manual ones can be changed."
        ),
        input_schema=schema(
            {
                "limit": {**LIMIT, "description": "How many to return (1-100, default 20)."},
                "source": {**SOURCE, "description": "all (default), manual or synced."},
                "category": CATEGORY,
                "direction": DIRECTION,
                "since": {**DATE, "description": "Earliest date, YYYY-MM-DD, inclusive."},
                "until": {**DATE, "description": "Latest date, YYYY-MM-DD, inclusive."},
            }
        ),
        handler=list_transactions,
    ),
    Tool(
        name="list_linked_accounts",
        family=READ,
        workflows=("coach", "asset_update", "inspect"),
        description="List the user's linked bank and wallet accounts (read only) with their synced balances.",
        input_schema=schema({}),
        handler=list_linked_accounts,
    ),
    Tool(
        name="list_assets",
        family=READ,
        workflows=tuple(w for w in WORKFLOWS if w != "delete"),  # a transaction's delete needs no asset
        description=(
            "List the user's assets (cash, bank accounts, e-wallets, savings, property...) with balances. "
            "editable=false marks synced assets, which cannot be changed here."
        ),
        input_schema=schema({"source": {**SOURCE, "description": "all (default), manual or synced."}}),
        handler=list_assets,
    ),
    Tool(
        name="list_budgets",
        family=READ,
        workflows=("coach", "inspect"),
        description="List the user's monthly budgets per category with the limit (amount), spent and remaining.",
        input_schema=schema(
            {"month": {"type": "string", "pattern": r"^\d{4}-\d{2}$", "description": "YYYY-MM; default this month."}}
        ),
        handler=list_budgets,
    ),
    Tool(
        name="list_goals",
        family=READ,
        workflows=("coach", "inspect"),
        description="List the user's financial goals with progress_pct, monthly_needed and on_track.",
        input_schema=schema({"status": {"type": "string", "enum": ["active", "achieved", "all"]}}),
        handler=list_goals,
    ),
    Tool(
        name="list_smart_suggestions",
        family=READ,
        workflows=("coach", "inspect"),
        description="List the user's active smart suggestions (rule-based tips with a prompt to follow up).",
        input_schema=schema({"limit": {**LIMIT, "description": "How many to return (1-100, default 10)."}}),
        handler=list_smart_suggestions,
    ),
    Tool(
        name="summarize_spending",
        family=READ,
        workflows=("coach", "inspect"),
        card=cards.chart,
        description=(
            "Total the user's expenses over a period, grouped by category, week or day, in the user's currency. "
            "The result is shown to the user as a chart."
        ),
        input_schema=schema(
            {
                "period": {"type": "string", "enum": list(PERIODS), "description": "Default this_month."},
                "group_by": {"type": "string", "enum": list(GROUPS), "description": "Default category."},
            }
        ),
        handler=summarize_spending,
    ),
    Tool(
        name="list_recurring",
        family=READ,
        workflows=("coach", "inspect"),
        card=cards.recurring,
        description=(
            "List the user's recurring money detected from their history: subscriptions (discretionary, "
            "cancellable), bills (essential) and income, each with amount, interval, next_on and what it costs "
            "a month and a year, plus the totals of what goes out. Use it for questions about subscriptions, "
            "bills, what is due soon or what the user pays every month. Shown to the user as a card."
        ),
        input_schema=schema(
            {
                "status": {"type": "string", "enum": ["active", "ended", "all"], "description": "Default active."},
                "kind": {
                    "type": "string",
                    "enum": ["subscription", "bill", "income", "transfer", "all"],
                    "description": "Default all.",
                },
                "due_within_days": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 366,
                    "description": "Only series whose next charge is due from today through this many days.",
                },
            }
        ),
        handler=list_recurring,
    ),
)

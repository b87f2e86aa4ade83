"""The weekly review of a batch of users, as data (docs/digest.md): a handful of queries per batch
(suggestions/digest/reads.py), the rest arithmetic. The job stores and sends it; the /digest page shows it."""

import datetime as dt
import re
import zoneinfo
from collections import defaultdict
from decimal import Decimal

from assets.ledger.shapes import conversions_json, rate_missing_json, rate_text
from assets.ledger.totals import conversion_summary, missing_summary
from goals.selectors import goal_progress_of
from plans.selectors import plan_summaries
from suggestions.batches import BatchUser
from suggestions.digest.reads import weekly_review_rows
from suggestions.recurring.detection import monthly_cost
from zeus.money import quantize

SEND_WEEKDAY = 6  # Sunday
SEND_HOUR = 9  # from 09:00 in the user's timezone
TOP = 3
_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


def iso_week(day: dt.date) -> str:
    year, week, _weekday = day.isocalendar()
    return f"{year}-W{week:02d}"


def week_start(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def parse_iso_week(value: str) -> dt.date | None:
    """The Monday of "2026-W48", or None when it is not an ISO week."""
    match = _WEEK.match(value or "")
    if not match:
        return None
    try:
        return dt.date.fromisocalendar(int(match[1]), int(match[2]), 1)
    except ValueError:
        return None


def local_now(user: BatchUser, now: dt.datetime) -> dt.datetime:
    return now.astimezone(zoneinfo.ZoneInfo(user.timezone))


def is_due(local: dt.datetime) -> bool:
    """Sunday from 09:00 local time; the hourly beat catches every timezone's 09:00 within the hour."""
    return local.weekday() == SEND_WEEKDAY and local.hour >= SEND_HOUR


def _money(amount: Decimal, currency: str) -> str:
    return str(quantize(amount, currency))


def compose(users: list[BatchUser], *, start: dt.date, now: dt.datetime) -> dict[int, dict]:
    """The review of the week starting `start` (a Monday) for each user, as of `now`: the batch's reads
    (suggestions.digest.reads.weekly_review_rows: spending and biggest expenses, goals, bills due, insights)
    and the plans' (plans.selectors.plan_summaries), each a fixed number of queries for the batch."""
    if not users:
        return {}
    end = start + dt.timedelta(days=6)
    zones = {u.id: zoneinfo.ZoneInfo(u.timezone) for u in users}
    today_of = {u.id: min(now.astimezone(zones[u.id]).date(), end) for u in users}
    rows = weekly_review_rows(
        currencies={u.id: u.currency for u in users},
        week_start=start,
        per_user=TOP,
        due=(end + dt.timedelta(days=1), end + dt.timedelta(days=7)),
        insights_since=min(dt.datetime.combine(start, dt.time(), zone) for zone in zones.values()),
    )
    plans = plan_summaries(today_by_user=today_of)
    goals = defaultdict(list)
    for goal in rows.goals:
        goals[goal.user_id].append(goal)
    due = defaultdict(list)
    for series in rows.due:
        due[series.user_id].append(series)
    insights = defaultdict(list)
    for insight in rows.insights:
        if insight.created_at.astimezone(zones[insight.user_id]).date() >= start:
            insights[insight.user_id].append(insight)

    # What every review of the batch shares: the week's labels and dates.
    week, first, last = iso_week(start), start.isoformat(), end.isoformat()
    label1, label2, label3, label4 = (iso_week(start - dt.timedelta(days=7 * k)) for k in range(1, 5))
    no_weeks = (Decimal(0),) * 5
    spending = rows.spending
    out = {}
    for user in users:
        uid, c = user.id, user.currency
        spent, week1, week2, week3, week4 = spending.weeks.get(uid, no_weeks)
        # Most users have nothing in another currency: no summary to build of nothing.
        if uid in spending.missing:
            missing = [rate_missing_json(missing_summary(m)) if m else [] for m in spending.missing[uid]]
        else:
            missing = [[], [], [], [], []]
        converted = spending.converted.get(uid)
        average = (week1 + week2 + week3 + week4) / 4
        top = sorted(spending.categories.get(uid, ()), key=_largest_first)[:TOP]
        plan = plans.get(uid)
        out[uid] = {
            "week": week,
            "start": first,
            "end": last,
            "currency": c,
            "spent": str(quantize(spent, c)),
            "converted": conversions_json(conversion_summary(converted)) if converted else [],
            "rate_missing": missing[0],
            "previous_weeks": [
                {"week": label1, "spent": str(quantize(week1, c)), "rate_missing": missing[1]},
                {"week": label2, "spent": str(quantize(week2, c)), "rate_missing": missing[2]},
                {"week": label3, "spent": str(quantize(week3, c)), "rate_missing": missing[3]},
                {"week": label4, "spent": str(quantize(week4, c)), "rate_missing": missing[4]},
            ],
            "average_previous": str(quantize(average, c)),
            "change_pct": None if average == 0 else round((spent - average) * 100 / average),
            "top_categories": [{"category": cat, "spent": str(quantize(v, c))} for cat, v in top],
            "biggest": [_big(b) for b in spending.biggest.get(uid, ())],
            "plan": None
            if plan is None
            else {
                "state": plan.warning,
                "streak": plan.streak,
                "safe_left": _money(plan.safe_left, plan.currency),
                "guide": _money(plan.guide, plan.currency),
                "currency": plan.currency,
            },
            "goals": [_goal(goal, today_of[uid]) for goal in goals.get(uid, ())],
            "due_next_week": [
                {
                    "id": s.id,
                    "merchant": s.merchant,
                    "kind": s.kind,
                    "amount": _money(s.amount, s.currency),
                    "currency": s.currency,
                    "next_on": s.next_on.isoformat(),
                    "monthly_cost": _money(monthly_cost(s.amount, s.interval), s.currency),
                }
                for s in due.get(uid, ())
            ],
            "insights": [
                {"kind": s.kind, "title": s.words.title, "cta_url": s.words.cta_url} for s in insights.get(uid, ())
            ],
        }
    return out


def _big(big) -> dict:
    """A big expense in its own currency; in another than the reader's, its converted amount and the rate."""
    conversion = big.conversion
    missing = conversion.converted is None
    return {
        "description": big.description,
        "amount": str(quantize(big.amount, big.currency)),
        "currency": big.currency,
        "category": big.category,
        "occurred_on": big.occurred_on.isoformat(),
        # convert() quantized it to the reader's currency already.
        "converted": None if missing else str(conversion.converted),
        "rate": None if missing else rate_text(conversion.rate),
        "rate_date": None if missing else conversion.rate_day.isoformat(),
    }


def _largest_first(pair):  # categories: the largest first, equal ones by name
    return -pair[1], pair[0]


def _goal(goal, today: dt.date) -> dict:
    progress = goal_progress_of(goal, today=today)
    return {
        "id": goal.id,
        "name": goal.name,
        "progress_pct": str(progress.progress_pct),
        "on_track": progress.on_track,
        "current_amount": _money(goal.current_amount, goal.currency),
        "target_amount": _money(goal.target_amount, goal.currency),
        "currency": goal.currency,
    }

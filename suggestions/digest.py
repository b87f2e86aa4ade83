"""The weekly review of a batch of users, as data (docs/digest.md): a handful of queries per batch, the rest
arithmetic. The services store and send it; the /digest page shows it."""

import datetime as dt
import functools
import re
import zoneinfo
from collections import defaultdict
from decimal import ROUND_HALF_UP, Context, Decimal

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assets.labels import category_label
from goals.selectors import goal_progress_of
from plans.selectors import plan_summaries
from suggestions import recurring, selectors
from suggestions.selectors import BatchUser
from zeus import collector
from zeus.formatting import number_text
from zeus.money import format_amount, minor_unit


def _reader() -> str:
    """The language the words are being made in (the reader's: the page's request, or the batch's override)."""
    return translation.get_language() or "vi"


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


# zeus.money.quantize's rounding in a context of its own: Context.quantize takes its arguments by position,
# a third of the cost of Decimal.quantize's keyword call, for the some fourteen amounts of every review.
_HALF_UP = Context(rounding=ROUND_HALF_UP)


def _money(amount: Decimal, currency: str) -> str:
    """zeus.money.quantize's figure, as text, for the Decimal amounts of a review (without its conversion
    of other numbers)."""
    return str(_HALF_UP.quantize(amount, minor_unit(currency)))


@collector.paused()  # the batch's reviews are acyclic and live until it returns
def compose(users: list[BatchUser], *, start: dt.date, now: dt.datetime) -> dict[int, dict]:
    """The review of the week starting `start` (a Monday) for each user, as of `now`: one round trip for the
    batch's reads (selectors.weekly_review_rows: spending and biggest expenses, who has a plan, goals, bills
    due, insights) and, for the users with an active plan only, plan_summaries' reads (one to three)."""
    if not users:
        return {}
    ids = [u.id for u in users]
    end = start + dt.timedelta(days=6)
    zones = {u.id: zoneinfo.ZoneInfo(u.timezone) for u in users}
    today_of = {u.id: min(now.astimezone(zones[u.id]).date(), end) for u in users}
    rows = selectors.weekly_review_rows(
        user_ids=ids,
        week_start=start,
        per_user=TOP,
        plan_months={today.replace(day=1) for today in today_of.values()},
        due=(end + dt.timedelta(days=1), end + dt.timedelta(days=7)),
        insights_since=min(dt.datetime.combine(start, dt.time(), zone) for zone in zones.values()),
    )
    planned = {uid: today_of[uid] for uid in rows.planned}
    plans = plan_summaries(today_by_user=planned) if planned else {}
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
    quantize = _HALF_UP.quantize
    spending = rows.spending
    out = {}
    for user in users:
        uid, c = user.id, user.currency
        unit = minor_unit(c)
        key = uid, c
        spent, week1, week2, week3, week4 = spending.weeks.get(key, no_weeks)
        average = (week1 + week2 + week3 + week4) / 4
        top = sorted(spending.categories.get(key, ()), key=_largest_first)[:TOP]
        plan = plans.get(uid)
        out[uid] = {
            "week": week,
            "start": first,
            "end": last,
            "currency": c,
            "spent": str(quantize(spent, unit)),
            "previous_weeks": [
                {"week": label1, "spent": str(quantize(week1, unit))},
                {"week": label2, "spent": str(quantize(week2, unit))},
                {"week": label3, "spent": str(quantize(week3, unit))},
                {"week": label4, "spent": str(quantize(week4, unit))},
            ],
            "average_previous": str(quantize(average, unit)),
            "change_pct": None if average == 0 else round((spent - average) * 100 / average),
            "top_categories": [{"category": cat, "spent": str(quantize(v, unit))} for cat, v in top],
            "biggest": [
                {
                    "description": b.description,
                    "amount": str(quantize(b.amount, unit)),
                    "category": b.category,
                    "occurred_on": b.occurred_on.isoformat(),
                }
                for b in spending.biggest.get(key, ())
            ],
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
                    "monthly_cost": _money(recurring.monthly_cost(s.amount, s.interval), s.currency),
                }
                for s in due.get(uid, ())
            ],
            "insights": [{"kind": s.kind, "title": s.title, "cta_url": s.cta_url} for s in insights.get(uid, ())],
        }
    return out


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


# Words, in the user's language (the caller sets it with translation.override).

STATE_LABELS = {
    "on_track": gettext_lazy("on track"),
    "spend_pace": gettext_lazy("spending ahead of pace"),
    "overspent": gettext_lazy("overspent"),
    "goal_drift": gettext_lazy("behind on the goal"),
}


def title(review: dict, *, _=_) -> str:
    c = review["currency"]
    return _("Your week %(week)s: %(spent)s spent") % {
        "week": review["week"],
        "spent": format_amount(Decimal(review["spent"]), c, locale=_reader()),
    }


def body(review: dict, *, _=_) -> str:
    """The review in a few plain lines: the inbox text and the mail's body. (`_`: texts() passes gettext
    memoised for the batch; the words are the same.)"""
    c = review["currency"]
    lines = []
    spent = format_amount(Decimal(review["spent"]), c, locale=_reader())
    average = format_amount(Decimal(review["average_previous"]), c, locale=_reader())
    if review["change_pct"] is None:
        lines.append(_("You spent %(spent)s this week.") % {"spent": spent})
    elif review["change_pct"] >= 0:
        lines.append(
            _(
                "You spent %(spent)s this week, %(pct)s%% more than your average of %(average)s over the four "
                "weeks before."
            )
            % {"spent": spent, "pct": number_text(review["change_pct"]), "average": average}
        )
    else:
        lines.append(
            _(
                "You spent %(spent)s this week, %(pct)s%% less than your average of %(average)s over the four "
                "weeks before."
            )
            % {"spent": spent, "pct": number_text(-review["change_pct"]), "average": average}
        )
    if review["top_categories"]:
        top = ", ".join(
            f"{category_label(t['category'])} {format_amount(Decimal(t['spent']), c, locale=_reader())}"
            for t in review["top_categories"]
        )
        lines.append(_("Top categories: %(top)s.") % {"top": top})
    if review["biggest"]:
        big = review["biggest"][0]
        lines.append(
            _("Biggest: %(description)s, %(amount)s.")
            % {"description": big["description"], "amount": format_amount(Decimal(big["amount"]), c, locale=_reader())}
        )
    plan = review["plan"]
    if plan:
        lines.append(
            _("Plan: %(state)s, a %(streak)s-day streak, %(left)s left to spend safely this month.")
            % {
                "state": str(STATE_LABELS.get(plan["state"], plan["state"])),
                "streak": plan["streak"],
                "left": format_amount(Decimal(plan["safe_left"]), plan["currency"], locale=_reader()),
            }
        )
    for goal in review["goals"][:TOP]:
        lines.append(_("Goal %(name)s: %(pct)s%%.") % {"name": goal["name"], "pct": number_text(goal["progress_pct"])})
    if review["due_next_week"]:
        due = ", ".join(
            f"{d['merchant']} {format_amount(Decimal(d['amount']), d['currency'], locale=_reader())}"
            for d in review["due_next_week"]
        )
        lines.append(_("Due next week: %(due)s.") % {"due": due})
    if review["insights"]:
        lines.append(
            _("Noticed this week: %(titles)s.") % {"titles": "; ".join(i["title"] for i in review["insights"])}
        )
    return "\n".join(lines)


def texts(reviews: dict[int, dict], languages: dict[int, str]) -> dict[int, tuple[str, str]]:
    """Each review's (title, body), as title() and body() write them under the user's language: the users
    grouped by language (one translation.override each, not one per user) and each sentence's translation
    looked up once per language for the batch (the same few sentences repeat for every user)."""
    by_language: dict[str, list[int]] = defaultdict(list)
    for uid in reviews:
        by_language[languages.get(uid, "vi")].append(uid)
    out = {}
    for language, uids in by_language.items():
        with translation.override(language):
            words = functools.lru_cache(maxsize=None)(_)  # inside the override: this language's catalogue
            for uid in uids:
                out[uid] = (title(reviews[uid], _=words), body(reviews[uid], _=words))
    return {uid: out[uid] for uid in reviews}


def chart(review: dict) -> dict:
    """This week against the four before, oldest first, for static/zeus/charts.js: {type, labels, datasets,
    currency}."""
    weeks = [*reversed(review["previous_weeks"]), {"week": review["week"], "spent": review["spent"]}]
    return {
        "type": "bar",
        "labels": [w["week"] for w in weeks],
        "datasets": [{"label": _("Spent"), "data": [w["spent"] for w in weeks]}],
        "currency": review["currency"],
    }

"""The nightly insights for one batch of users, as drafts: category spikes, duplicate charges, budget
thresholds. A handful of queries per batch (docs/contract/tasks.md; docs/suggestions.md); the rest is arithmetic."""

import datetime as dt
import zoneinfo
from collections import defaultdict
from decimal import Decimal

from suggestions import selectors
from suggestions.drafts import Draft, chat_url
from suggestions.duplicates import Cluster, candidate_clusters, is_habit_suspect, recurring_amount, settled, two_visits
from suggestions.models import Suggestion
from suggestions.selectors import BatchUser, CategoryWeeks
from suggestions.spikes import detect_spike
from suggestions.thresholds import BUDGET_LEVELS, MIN_HISTORY_WEEKS, WEEKS_OF_HISTORY, minimum_amount
from zeus.money import format_amount, quantize

Kind = Suggestion.Kind


def local_today(timezone_name: str, now: dt.datetime) -> dt.date:
    return now.astimezone(zoneinfo.ZoneInfo(timezone_name)).date()


def batch_drafts(users: list[BatchUser], *, now: dt.datetime) -> dict[int, list[Draft]]:
    """Insight drafts per user id. Users are grouped by their local today (a batch spans a few at most)."""
    by_today: dict[dt.date, list[int]] = defaultdict(list)
    for user in users:
        by_today[local_today(user.timezone, now)].append(user.id)
    out: dict[int, list[Draft]] = defaultdict(list)
    for today, ids in by_today.items():
        totals = selectors.weekly_category_totals(user_ids=ids, today=today)
        for user_id, draft in _spikes(totals, today):
            out[user_id].append(draft)
        for user_id, draft in _budget_thresholds(totals, selectors.budgets_of(user_ids=ids), today):
            out[user_id].append(draft)
        for user_id, draft in _duplicates(ids, today):
            out[user_id].append(draft)
    return out


def _label(category: str) -> str:
    return category.replace("_", " ")


def _spikes(totals: list[CategoryWeeks], today: dt.date):
    first_on: dict[int, dt.date] = {}
    for row in totals:
        first_on[row.user_id] = min(first_on.get(row.user_id, row.first_on), row.first_on)
    year, week, _ = today.isocalendar()
    for row in totals:
        user_id, currency, category, values = row.user_id, row.currency, row.category, row.weeks
        minimum = minimum_amount(currency)
        x = values[0]
        if x < minimum:
            continue
        # Windows that ended before the user's first expense are not quiet weeks, they are no data.
        first = first_on[user_id]
        history = [values[k] for k in range(1, WEEKS_OF_HISTORY + 1) if today - dt.timedelta(days=7 * k) >= first]
        if len(history) < MIN_HISTORY_WEEKS:
            continue
        spike = detect_spike(x, history, minimum=minimum)
        if spike is None:
            continue
        label = _label(category)
        prompt = f"Why is my {label} spending so high this week?"
        yield (
            user_id,
            Draft(
                kind=Kind.CATEGORY_SPIKE,
                dedupe_key=f"category_spike:{category}:{year}-W{week:02d}",
                title=f"Unusual {label} spending this week",
                body=(
                    f"You spent {format_amount(x, currency)} on {label} in the last 7 days, against a typical "
                    f"{format_amount(spike.median, currency)} a week."
                ),
                prompt=prompt,
                cta_url=chat_url(prompt),
                payload={
                    "category": category,
                    "currency": currency,
                    "last_7_days": str(quantize(x, currency)),
                    "median": str(quantize(spike.median, currency)),
                    "score": None if spike.score is None else str(spike.score),
                    "window_end": today.isoformat(),
                },
                overlaps_key=f"category_spike:{category}:{_previous_iso_week(today)}",
            ),
        )


def _previous_iso_week(today: dt.date) -> str:
    year, week, _ = (today - dt.timedelta(days=7)).isocalendar()
    return f"{year}-W{week:02d}"


def _budget_thresholds(totals: list[CategoryWeeks], budgets, today: dt.date):
    spent = {(row.user_id, row.currency, row.category): row.month_to_date for row in totals}
    period = f"{today:%Y-%m}"
    for budget in budgets:
        used = spent.get((budget.user_id, budget.currency, budget.category), Decimal(0))
        pct = used * 100 / budget.amount
        label = _label(budget.category)
        limit = format_amount(budget.amount, budget.currency)
        for level in BUDGET_LEVELS:
            if pct < level:
                continue
            if level >= 100:
                title = f"You have gone over your {label} budget"
                prompt = f"I went over my {label} budget this month; how do I get back on track?"
            else:
                title = f"You have used {int(pct)}% of your {label} budget"
                prompt = f"How can I stay within my {label} budget for the rest of the month?"
            yield (
                budget.user_id,
                Draft(
                    kind=Kind.BUDGET_THRESHOLD,
                    dedupe_key=f"budget_threshold:{budget.category}:{level}:{period}",
                    title=title,
                    body=f"You have spent {format_amount(used, budget.currency)} of your {limit} {label} budget "
                    f"this month.",
                    prompt=prompt,
                    cta_url=chat_url(prompt),
                    payload={
                        "category": budget.category,
                        "level": level,
                        "spent": str(quantize(used, budget.currency)),
                        "limit": str(quantize(budget.amount, budget.currency)),
                        "currency": budget.currency,
                    },
                ),
            )


def _duplicates(user_ids: list[int], today: dt.date):
    """Three reads at most: the candidate (user, amount) pairs, their rows, and for consecutive-day clusters
    that survive, their users' lookback (to tell a double charge from two visits)."""
    candidates = selectors.close_repeats(user_ids=user_ids, today=today)
    if not candidates:
        return
    rows = selectors.rows_with_amounts(candidates=candidates, today=today)
    series: dict[tuple[int, Decimal], list] = defaultdict(list)
    for row in rows:
        series[(row.user_id, row.amount)].append(row)
    clusters = []
    for cluster in candidate_clusters(rows):
        related = series[(cluster.first.user_id, cluster.first.amount)]
        if settled(cluster, related):
            continue
        if is_habit_suspect(cluster) and recurring_amount(cluster, related):
            continue
        clusters.append(cluster)
    spread = {c.first.user_id for c in clusters if is_habit_suspect(c)}
    lookback = defaultdict(list)
    for row in selectors.lookback_rows(user_ids=spread, today=today):
        lookback[row.user_id].append(row)
    for cluster in clusters:
        if not (is_habit_suspect(cluster) and two_visits(cluster, lookback[cluster.first.user_id])):
            yield cluster.first.user_id, _duplicate_draft(cluster)


def _duplicate_draft(cluster: Cluster) -> Draft:
    first = cluster.first
    merchant = first.description.strip()
    amount = format_amount(first.amount, first.currency)
    days = sorted(cluster.days)
    when = f"on {days[0]:%d %b %Y}" if len(days) == 1 else f"between {days[0]:%d %b} and {days[-1]:%d %b %Y}"
    if first.direction == "expense":
        noun, prompt = "charge", f"Was I charged twice at {merchant} for {amount}?"
    else:
        noun, prompt = "deposit", f"Was {amount} from {merchant} recorded twice?"
    return Draft(
        kind=Kind.DUPLICATE_CHARGE,
        dedupe_key=f"duplicate_charge:{first.id}",
        title=f"Possible duplicate {noun} at {merchant}",
        body=f"{len(cluster.rows)} {noun}s of {amount} at {merchant} {when}. If you paid only once, ask {merchant} "
        f"for a refund.",
        prompt=prompt,
        cta_url=chat_url(prompt),
        payload={
            "transaction_ids": [r.id for r in cluster.rows],
            "amount": str(quantize(first.amount, first.currency)),
            "currency": first.currency,
            "direction": first.direction,
            "dates": [d.isoformat() for d in days],
        },
    )

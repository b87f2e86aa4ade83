"""The nightly insights for one batch of users, as drafts: category spikes, duplicate charges, budget
thresholds. A handful of queries per batch (suggestions/insights/reads.py; docs/suggestions.md); the rest is
arithmetic."""

import datetime as dt
from collections import defaultdict
from decimal import Decimal

from django.utils import translation

from suggestions.batches import BatchUser, local_today
from suggestions.drafts import Draft
from suggestions.insights import reads, wording
from suggestions.insights.duplicates import (
    Cluster,
    candidate_clusters,
    is_habit_suspect,
    recurring_amount,
    settled,
    two_visits,
)
from suggestions.insights.reads import BudgetLimit, CategoryWeeks
from suggestions.insights.spikes import detect_spike
from suggestions.models import Suggestion
from suggestions.thresholds import BUDGET_LEVELS, MIN_HISTORY_WEEKS, WEEKS_OF_HISTORY, minimum_amount
from zeus.money import quantize

Kind = Suggestion.Kind


def batch_drafts(users: list[BatchUser], *, now: dt.datetime) -> dict[int, list[Draft]]:
    """Insight drafts per user id. Users are grouped by their local today (a batch spans a few at most)."""
    by_today: dict[dt.date, list[int]] = defaultdict(list)
    todays = {zone: local_today(zone, now) for zone in {user.timezone for user in users}}
    for user in users:
        by_today[todays[user.timezone]].append(user.id)
    languages = {user.id: user.language for user in users}
    out: dict[int, list[Draft]] = defaultdict(list)
    for today, ids in by_today.items():
        totals = reads.weekly_category_totals(user_ids=ids, today=today)
        for user_id, draft in _spikes(totals, today, languages):
            out[user_id].append(draft)
        for user_id, draft in _budget_thresholds(totals, reads.budgets_of(user_ids=ids), today, languages):
            out[user_id].append(draft)
        for user_id, draft in _duplicates(ids, today, languages):
            out[user_id].append(draft)
    return out


def _worded(language: str | None, kind: str, payload: dict, write, **keys) -> Draft:
    """A draft whose words `write(payload)` makes in its reader's language (docs/i18n.md); its facts stay in
    `payload`, so it is worded again when read."""
    with translation.override(language or "vi"):
        words = write(payload)
    return Draft(
        kind=kind,
        title=words.title,
        body=words.body,
        prompt=words.prompt,
        cta_url=words.cta_url,
        payload=payload,
        **keys,
    )


def _spikes(totals: list[CategoryWeeks], today: dt.date, languages: dict[int, str]):
    first_on: dict[int, dt.date] = {}
    for row in totals:
        first = first_on.get(row.user_id)
        if first is None or row.first_on < first:
            first_on[row.user_id] = row.first_on
    year, week, _ = today.isocalendar()
    zero = Decimal(0)
    for row in totals:
        user_id, currency, category, values = row.user_id, row.currency, row.category, row.weeks
        minimum = minimum_amount(currency)
        x = values[0]
        if x is None or x < minimum:
            continue
        # Windows that ended before the user's first expense are not quiet weeks, they are no data: window k
        # ended 7k days before today, so the first (today - first) // 7 windows are history.
        seen = min(WEEKS_OF_HISTORY, (today - first_on[user_id]).days // 7)
        if seen < MIN_HISTORY_WEEKS:
            continue
        history = [v or zero for v in values[1 : seen + 1]]
        spike = detect_spike(x, history, minimum=minimum)
        if spike is None:
            continue
        payload = {
            "category": category,
            "currency": currency,
            "last_7_days": str(quantize(x, currency)),
            "median": str(quantize(spike.median, currency)),
            "score": None if spike.score is None else str(spike.score),
            "window_end": today.isoformat(),
        }
        yield (
            user_id,
            _worded(
                languages.get(user_id),
                Kind.CATEGORY_SPIKE,
                payload,
                wording.category_spike,
                dedupe_key=f"category_spike:{category}:{year}-W{week:02d}",
                overlaps_key=f"category_spike:{category}:{_previous_iso_week(today)}",
            ),
        )


def _previous_iso_week(today: dt.date) -> str:
    year, week, _ = (today - dt.timedelta(days=7)).isocalendar()
    return f"{year}-W{week:02d}"


def _budget_thresholds(
    totals: list[CategoryWeeks], budgets: list[BudgetLimit], today: dt.date, languages: dict[int, str]
):
    spent = {(row.user_id, row.currency, row.category): row.month_to_date for row in totals}
    period = f"{today:%Y-%m}"
    for budget in budgets:
        used = spent.get((budget.user_id, budget.currency, budget.category), Decimal(0))
        pct = used * 100 / budget.amount
        for level in BUDGET_LEVELS:
            if pct < level:
                continue
            payload = {
                "category": budget.category,
                "level": level,
                "spent": str(quantize(used, budget.currency)),
                "limit": str(quantize(budget.amount, budget.currency)),
                "currency": budget.currency,
            }
            yield (
                budget.user_id,
                _worded(
                    languages.get(budget.user_id),
                    Kind.BUDGET_THRESHOLD,
                    payload,
                    wording.budget_threshold,
                    dedupe_key=f"budget_threshold:{budget.category}:{level}:{period}",
                ),
            )


def _duplicates(user_ids: list[int], today: dt.date, languages: dict[int, str]):
    """Three reads at most: the candidate (user, amount) pairs, their rows, and for consecutive-day clusters
    that survive, their users' lookback (to tell a double charge from two visits)."""
    candidates = reads.close_repeats(user_ids=user_ids, today=today)
    if not candidates:
        return
    rows = reads.rows_with_amounts(candidates=candidates, today=today)
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
    for row in reads.lookback_rows(user_ids=spread, today=today):
        lookback[row.user_id].append(row)
    for cluster in clusters:
        if not (is_habit_suspect(cluster) and two_visits(cluster, lookback[cluster.first.user_id])):
            yield cluster.first.user_id, _duplicate_draft(cluster, languages.get(cluster.first.user_id))


def _duplicate_draft(cluster: Cluster, language: str | None) -> Draft:
    first = cluster.first
    payload = {
        "transaction_ids": [r.id for r in cluster.rows],
        "merchant": first.description.strip(),
        "amount": str(quantize(first.amount, first.currency)),
        "currency": first.currency,
        "direction": first.direction,
        "dates": [d.isoformat() for d in sorted(cluster.days)],
    }
    return _worded(
        language, Kind.DUPLICATE_CHARGE, payload, wording.duplicate_charge, dedupe_key=f"duplicate_charge:{first.id}"
    )

"""Writes: the user's dismiss and complete, the rule-based refresh, and saving the nightly insights."""

import datetime as dt
import json
import logging
import operator
import uuid
from collections import defaultdict
from dataclasses import dataclass

from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone, translation

from plans.selectors import plan_summaries
from suggestions import digest, insights, recurring, recurring_insights, rules, selectors
from suggestions.drafts import Draft
from suggestions.models import RULE_KINDS, RecurringSeries, Suggestion, WeeklyDigest
from suggestions.thresholds import BILL_DUE_DAYS
from zeus import collector
from zeus.errors import Conflict, NotFound
from zeus.mail import profile_language
from zeus.models import Notification
from zeus.services import NotificationDraft, notification_create_many
from zeus.timeutil import month_bounds, user_today

log = logging.getLogger(__name__)

_CONTENT = ("title", "body", "prompt", "cta_url", "payload")


def _close(*, user, suggestion_id, status: str) -> Suggestion:
    """active → dismissed or completed, once. Repeating the same close is a no-op; the other one is a 409."""
    try:
        suggestion_id = int(suggestion_id)
    except (TypeError, ValueError):
        raise NotFound("No such suggestion.") from None
    Suggestion.objects.filter(user=user, id=suggestion_id, status=Suggestion.Status.ACTIVE).update(
        status=status, updated_at=timezone.now()
    )
    suggestion = selectors.suggestion_get(user=user, suggestion_id=suggestion_id)
    if suggestion.status != status:
        raise Conflict(f"This suggestion is already {suggestion.status}.", code="SUGGESTION_CLOSED")
    return suggestion


def suggestion_dismiss(*, user, suggestion_id) -> Suggestion:
    return _close(user=user, suggestion_id=suggestion_id, status=Suggestion.Status.DISMISSED)


def suggestion_complete(*, user, suggestion_id) -> Suggestion:
    return _close(user=user, suggestion_id=suggestion_id, status=Suggestion.Status.COMPLETED)


def _row(user_id: int, draft: Draft) -> Suggestion:
    return Suggestion(
        user_id=user_id,
        kind=draft.kind,
        dedupe_key=draft.dedupe_key,
        title=draft.title[:200],
        body=draft.body,
        prompt=draft.prompt,
        cta_url=draft.cta_url[:500],
        payload=draft.payload,
    )


def suggestions_refresh(*, user, now: dt.datetime | None = None) -> dict[str, int]:
    """Brings the user's rule-based suggestions in line with their data today.

    A rule that holds adds its suggestion for the period once; while it stays active its figures are
    updated in place. An active rule-based suggestion whose rule no longer holds (or whose period has
    passed) is deleted: nobody acted on it and it is no longer true. Dismissed and completed ones stay, and
    their keys keep the same rule from coming back in the same period.
    """
    drafts = {d.dedupe_key: d for d in rules.rule_drafts(user=user, today=user_today(user, now=now))}
    counts = {"created": 0, "updated": 0, "retired": 0}
    with transaction.atomic():
        existing = {
            s.dedupe_key: s
            for s in Suggestion.objects.filter(user=user, kind__in=RULE_KINDS).filter(dedupe_key__in=list(drafts))
        }
        for key, draft in drafts.items():
            current = existing.get(key)
            if current is None or current.status != Suggestion.Status.ACTIVE:
                continue
            fresh = _row(user.id, draft)
            changed = [f for f in _CONTENT if getattr(current, f) != getattr(fresh, f)]
            if changed:
                for f in changed:
                    setattr(current, f, getattr(fresh, f))
                current.save(update_fields=[*changed, "updated_at"])
                counts["updated"] += 1
        new = [_row(user.id, d) for k, d in drafts.items() if k not in existing]
        Suggestion.objects.bulk_create(new, ignore_conflicts=True)
        counts["created"] = len(new)
        counts["retired"], _ = (
            Suggestion.objects.filter(user=user, kind__in=RULE_KINDS, status=Suggestion.Status.ACTIVE)
            .exclude(dedupe_key__in=list(drafts))
            .delete()
        )
    return counts


def suggestions_refresh_users(*, user_ids: list[int], now: dt.datetime | None = None) -> int:
    """Refreshes each user on its own, so one user's bad data never stops the batch. Returns how many ran."""
    done = 0
    for user in get_user_model().objects.filter(id__in=user_ids, is_active=True):
        try:
            suggestions_refresh(user=user, now=now)
            done += 1
        except Exception:
            log.exception("refreshing suggestions for user %s failed", user.id)
    return done


def insights_generate(
    *,
    user_ids: list[int] | None = None,
    user_id_range: tuple[int, int] | None = None,
    now: dt.datetime | None = None,
) -> int:
    """Runs the insights over the users (default: every active one; or those ids; or the ids in a fan-out
    batch's range) in bounded batches; returns how many new insights landed. A re-run adds nothing."""
    now = now or timezone.now()
    created = 0
    for batch in selectors.user_batches(user_ids=user_ids, user_id_range=user_id_range):
        created += insights_generate_batch(users=batch, now=now)
    return created


@collector.paused()  # a batch's totals, rows and drafts are acyclic and live until it returns
def insights_generate_batch(*, users: list[selectors.BatchUser], now: dt.datetime) -> int:
    drafts = insights.batch_drafts(users, now=now)
    if not drafts:
        return 0
    ids = list(drafts)
    keys = [k for ds in drafts.values() for d in ds for k in (d.dedupe_key, d.overlaps_key) if k]
    existing = selectors.existing_dedupe_keys(user_ids=ids, keys=keys)
    new = [(uid, d) for uid, ds in drafts.items() for d in ds if _is_new(uid, d, existing)]
    if not new:
        return 0
    _on_one_event_loop(_save_insights, new)
    return len(new)


def _save_insights(new: list[tuple[int, Draft]]) -> None:
    # One transaction for the suggestions and their notifications: a crash leaves neither, so the re-run
    # delivers both; a concurrent run is stopped by the unique keys of both tables.
    with transaction.atomic():
        Suggestion.objects.bulk_create([_row(uid, d) for uid, d in new], ignore_conflicts=True)
        notification_create_many(
            [
                NotificationDraft(
                    user_id=uid,
                    kind=Notification.Kind.INSIGHT,
                    title=draft.title,
                    body=draft.body,
                    cta_url=draft.cta_url,
                    dedupe_key=draft.dedupe_key,
                )
                for uid, draft in new
            ]
        )


def _on_one_event_loop(fn, *args):
    """Runs `fn` (sync, in this same thread and database connection) under one event loop.

    Each notification is pushed live when the transaction commits. From plain sync code every push starts
    an event loop of its own and so a new connection to the channel layer (10-20 ms each, measured); under
    one loop the pushes share a connection (under 1 ms each)."""
    return async_to_sync(sync_to_async(fn, thread_sensitive=True))(*args)


def _is_new(user_id: int, draft: Draft, existing: dict[tuple[int, str], dict]) -> bool:
    if (user_id, draft.dedupe_key) in existing:
        return False
    earlier = existing.get((user_id, draft.overlaps_key)) if draft.overlaps_key else None
    if earlier and earlier.get("window_end"):
        gap = dt.date.fromisoformat(draft.payload["window_end"]) - dt.date.fromisoformat(earlier["window_end"])
        return gap.days >= 7
    return True


# Recurring series


def recurring_dismiss(*, user, series_id) -> RecurringSeries:
    """The user says this is not a series (or not one to watch): it leaves the lists and raises nothing
    more; the nightly detection keeps it dismissed. Repeating it is a no-op."""
    series = selectors.recurring_get(user=user, series_id=series_id)
    if series.status != RecurringSeries.Status.DISMISSED:
        series.status = RecurringSeries.Status.DISMISSED
        series.save(update_fields=["status", "updated_at"])
    return series


@dataclass
class RecurringResult:
    series: int = 0
    created: int = 0
    ended: int = 0
    insights: int = 0

    def add(self, other: "RecurringResult") -> None:
        for f in ("series", "created", "ended", "insights"):
            setattr(self, f, getattr(self, f) + getattr(other, f))


def recurring_detect(
    *,
    user_ids: list[int] | None = None,
    user_id_range: tuple[int, int] | None = None,
    now: dt.datetime | None = None,
) -> RecurringResult:
    """Detects the series of these users (default: every active one; or the ids in a fan-out range) in
    bounded batches. A re-run changes nothing and raises no insight twice."""
    now = now or timezone.now()
    result = RecurringResult()
    for batch in selectors.user_batches(user_ids=user_ids, user_id_range=user_id_range):
        result.add(recurring_detect_batch(users=batch, now=now))
    return result


_SERIES_FIELDS = ("merchant", "kind", "amount", "previous_amount", "interval", "last_on", "next_on", "category")
_SERIES_WRITTEN = (*_SERIES_FIELDS, "occurrences", "status")


@collector.paused()  # a batch's charges, groups and series are acyclic and live until it returns
def recurring_detect_batch(*, users: list[selectors.BatchUser], now: dt.datetime) -> RecurringResult:
    """One batch: the charges that may be part of a series and its stored series in two queries, the
    detection in Python, one insert and one update for the series, then the insights (plans are read only
    when a bill is near)."""
    today_of = {u.id: insights.local_today(u.timezone, now) for u in users}
    languages = {u.id: u.language or "vi" for u in users}  # each insight in its reader's language
    if not today_of:
        return RecurringResult()
    charges = [
        c
        for c in selectors.recurring_candidates(user_ids=list(today_of), today=max(today_of.values()))
        if c.occurred_on <= today_of[c.user_id]
    ]
    detected = recurring.detect(charges)
    stored = selectors.series_rows_of(user_ids=list(today_of))
    result = RecurringResult(series=len(detected))
    new, changed, rises = [], [], []
    seen = set()
    active, ended, dismissed = (
        RecurringSeries.Status.ACTIVE,
        RecurringSeries.Status.ENDED,
        RecurringSeries.Status.DISMISSED,
    )
    for found in detected:
        key = (found.user_id, found.direction, found.currency, found.key)
        seen.add(key)
        today = today_of[found.user_id]
        row = stored.get(key)
        is_new = row is None
        if is_new:
            row = selectors.SeriesRow(None, *key)
            before = None
        else:
            before = tuple(getattr(row, f) for f in _SERIES_WRITTEN)
        for f in _SERIES_FIELDS:
            setattr(row, f, getattr(found, f))
        row.occurrences = found.occurrences
        if row.status != dismissed:
            overdue = recurring.is_overdue(found.next_on, found.interval, today)
            row.status = ended if overdue else active
            if found.rose and row.status == active:
                rises.append((row, found.previous_amount))
        if is_new:
            new.append(row)
        elif before != tuple(getattr(row, f) for f in _SERIES_WRITTEN):
            changed.append(row)
        if row.status == ended and (before is None or before[-1] != ended):
            result.ended += 1
    for key, row in stored.items():
        if key in seen or row.status != active:
            continue
        if recurring.is_overdue(row.next_on, row.interval, today_of[row.user_id]):
            row.status = ended
            changed.append(row)
            result.ended += 1
    if new or changed:
        with transaction.atomic():
            _series_insert(new, stamp=timezone.now())
            _series_update(changed, stamp=timezone.now())
    result.created = len(new)
    drafts: dict[int, list[Draft]] = defaultdict(list)
    for row, previous in rises:
        with translation.override(languages[row.user_id]):
            drafts[row.user_id].append(recurring_insights.price_change_draft(row, previous=previous))
    for user_id, draft in _bills_due([*stored.values(), *new], today_of, languages):
        drafts[user_id].append(draft)
    result.insights = _save_new_insights(drafts)
    return result


def _series_columns(rows: list[selectors.SeriesRow], names: tuple[str, ...]) -> list[list]:
    return [[getattr(r, n) for r in rows] for n in names]


# Column types for the unnest() of the bulk statements below (the model's columns).
_SERIES_TYPES = {
    "id": "bigint", "user_id": "integer", "direction": "text", "currency": "text", "key": "text",
    "merchant": "text", "kind": "text", "amount": "numeric", "previous_amount": "numeric", "interval": "text",
    "last_on": "date", "next_on": "date", "category": "text", "occurrences": "integer", "status": "text",
}  # fmt: skip


_series_values = operator.attrgetter(*selectors.SERIES_ROW)  # a SeriesRow's columns, in order, as a tuple


def _series_insert(rows: list[selectors.SeriesRow], *, stamp: dt.datetime) -> None:
    """New series: their ids drawn from the table's sequence in one query, then the rows in one COPY. The
    values go as they are (PostgreSQL rounds the amounts to the column's scale, as a model save would).
    COPY because psycopg formats its rows in C: the arrays of an INSERT ... SELECT FROM unnest (one per
    column) were dumped element by element in Python, most of a first run's insert of 2,500 series a
    batch."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        models = [RecurringSeries(**{n: getattr(r, n) for n in selectors.SERIES_ROW if n != "id"}) for r in rows]
        RecurringSeries.objects.bulk_create(models)
        for row, model in zip(rows, models, strict=True):
            row.id = model.id
        return
    table = RecurringSeries._meta.db_table
    names = (*selectors.SERIES_ROW, "created_at", "updated_at")
    columns = ", ".join(connection.ops.quote_name(n) for n in names)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, len(rows)]
        )
        for row, (series_id,) in zip(rows, cursor.fetchall(), strict=True):
            row.id = series_id
        with cursor.cursor.copy(f"COPY {connection.ops.quote_name(table)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row((*_series_values(row), stamp, stamp))


def _series_update(rows: list[selectors.SeriesRow], *, stamp: dt.datetime) -> None:
    """Changed series in one UPDATE ... FROM unnest (one array per written column), keyed by id."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        models = [RecurringSeries(**{n: getattr(r, n) for n in selectors.SERIES_ROW}) for r in rows]
        for model in models:
            model.updated_at = stamp
        RecurringSeries.objects.bulk_update(models, [*_SERIES_WRITTEN, "updated_at"])
        return
    names = ("id", *_SERIES_WRITTEN)
    table = connection.ops.quote_name(RecurringSeries._meta.db_table)
    arrays = ", ".join(f"%s::{_SERIES_TYPES[n]}[]" for n in names)
    assignments = ", ".join(f"{connection.ops.quote_name(n)} = v.{n}" for n in _SERIES_WRITTEN)
    sql = (
        f"UPDATE {table} AS s SET {assignments}, updated_at = %s "
        f"FROM unnest({arrays}) AS v({', '.join(names)}) WHERE s.id = v.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [stamp, *_series_columns(rows, names)])


def _bills_due(rows: list[selectors.SeriesRow], today_of: dict[int, dt.date], languages: dict[int, str]):
    """Active expense series due from today to a week ahead, within the user's month, whose amount is more
    than the safe-to-spend the user's plan has left for the month."""
    near = []
    for row in rows:
        today = today_of[row.user_id]
        horizon = min(today + dt.timedelta(days=BILL_DUE_DAYS), month_bounds(today.year, today.month)[1])
        if (
            row.status == RecurringSeries.Status.ACTIVE
            and row.direction == "expense"
            and today <= row.next_on <= horizon
        ):
            near.append(row)
    if not near:
        return
    plans = plan_summaries(today_by_user={r.user_id: today_of[r.user_id] for r in near})
    for row in near:
        plan = plans.get(row.user_id)
        if plan is not None and plan.currency == row.currency and row.amount > plan.safe_left:
            with translation.override(languages[row.user_id]):
                draft = recurring_insights.bill_due_draft(row, safe_left=plan.safe_left, today=today_of[row.user_id])
            yield row.user_id, draft


def _save_new_insights(drafts: dict[int, list[Draft]]) -> int:
    if not drafts:
        return 0
    keys = [d.dedupe_key for ds in drafts.values() for d in ds]
    existing = selectors.existing_dedupe_keys(user_ids=list(drafts), keys=keys)
    new = [(uid, d) for uid, ds in drafts.items() for d in ds if (uid, d.dedupe_key) not in existing]
    if not new:
        return 0
    _on_one_event_loop(_save_insights, new)
    return len(new)


# The weekly review


def weekly_digest_send(
    *,
    user_ids: list[int] | None = None,
    user_id_range: tuple[int, int] | None = None,
    now: dt.datetime | None = None,
) -> int:
    """Sends the weekly review to these users (default: every active one; or the ids in a fan-out range)
    for whom it is Sunday from 09:00 and who have not had this ISO week's yet, in bounded batches. Returns
    how many went out."""
    now = now or timezone.now()
    batches = selectors.user_batches(user_ids=user_ids, user_id_range=user_id_range)
    return sum(weekly_digest_send_batch(users=batch, now=now) for batch in batches)


@collector.paused()  # the reviews, their JSON and the notifications live until the batch returns
def weekly_digest_send_batch(*, users: list[selectors.BatchUser], now: dt.datetime) -> int:
    """One batch: the due users grouped by their week, those already served left out (one query), the
    review composed (digest.compose), then claimed and delivered in one transaction: the rows are inserted
    with ON CONFLICT DO NOTHING under this run's id, and only the rows this run inserted get their inbox
    notification (pushed live on commit) and, where the user opted in, their mail."""
    by_week: dict[dt.date, list[selectors.BatchUser]] = defaultdict(list)
    for user in users:
        local = digest.local_now(user, now)
        if digest.is_due(local):
            by_week[digest.week_start(local.date())].append(user)
    sent = 0
    for start, due in by_week.items():
        week = digest.iso_week(start)
        done = selectors.digests_of(user_ids=[u.id for u in due], iso_week=week)
        due = [u for u in due if u.id not in done]
        if due:
            # The languages as the batch read them (zeus.mail.profile_language's rule): no second read.
            languages = {u.id: profile_language(u) for u in due}
            sent += _digest_deliver(digest.compose(due, start=start, now=now), start=start, languages=languages)
    return sent


def _digest_claim(reviews: dict[int, dict], *, week: str, start: dt.date, run_id: uuid.UUID) -> list[int]:
    """Inserts the reviews with ON CONFLICT DO NOTHING under this run's id; returns the users whose row this
    run inserted (a review already there, or inserted by another worker first, is not ours). On PostgreSQL
    one statement over one JSON document of the rows (one json.dumps, no per-row array quoting), returning
    the users; elsewhere bulk_create and a read by run id."""
    if connection.vendor != "postgresql":
        WeeklyDigest.objects.bulk_create(
            [
                WeeklyDigest(user_id=uid, iso_week=week, week_start=start, payload=r, run_id=run_id)
                for uid, r in reviews.items()
            ],
            ignore_conflicts=True,
        )
        return list(WeeklyDigest.objects.filter(run_id=run_id).values_list("user_id", flat=True))
    table = connection.ops.quote_name(WeeklyDigest._meta.db_table)
    sql = (
        f"INSERT INTO {table} (user_id, iso_week, week_start, payload, run_id, created_at) "
        "SELECT (e->>0)::integer, %s, %s, e->1, %s, %s FROM jsonb_array_elements(%s::jsonb) AS e "
        "ON CONFLICT DO NOTHING RETURNING user_id"
    )
    rows = json.dumps([[uid, r] for uid, r in reviews.items()])  # as the JSONField would encode each
    with connection.cursor() as cursor:
        cursor.execute(sql, [week, start, run_id, timezone.now(), rows])
        inserted = {uid for (uid,) in cursor.fetchall()}
    # Newest row first, as the model's ordering reads them back (the notifications keep their order).
    return [uid for uid in reversed(reviews) if uid in inserted]


def _digest_deliver(reviews: dict[int, dict], *, start: dt.date, languages: dict[int, str]) -> int:
    run_id = uuid.uuid4()
    week = digest.iso_week(start)
    with transaction.atomic():
        ours = _digest_claim(reviews, week=week, start=start, run_id=run_id)
        if not ours:
            return 0
        words = digest.texts({uid: reviews[uid] for uid in ours}, languages)
        kind, url, key = Notification.Kind.WEEKLY_DIGEST, f"/digest/{week}", f"weekly_digest:{week}"
        notification_create_many(
            [
                NotificationDraft(
                    user_id=uid, kind=kind, title=words[uid][0][:200], body=words[uid][1], cta_url=url, dedupe_key=key
                )
                for uid in ours
            ]
        )
    return len(ours)


def weekly_digest_for(*, user, iso_week: str, now: dt.datetime | None = None) -> dict | None:
    """The review of one user and week for the page: as sent, or composed now for a week that has begun
    and was not sent (None for a week that has not begun)."""
    start = digest.parse_iso_week(iso_week)
    if start is None:
        return None
    stored = selectors.digest_get(user=user, iso_week=digest.iso_week(start))
    if stored is not None:
        return stored.payload
    now = now or timezone.now()
    batch_user = next(iter(selectors.user_batches(user_ids=[user.id])), [None])[0]
    if batch_user is None or digest.local_now(batch_user, now).date() < start:
        return None
    return digest.compose([batch_user], start=start, now=now)[user.id]

"""Writes of suggestion rows: the user's dismiss and complete, the rule-based refresh, and storing the insights
the nightly jobs draft (suggestions/insights/, suggestions/recurring/)."""

import datetime as dt
import logging

from asgiref.sync import async_to_sync, sync_to_async
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from suggestions import rules, selectors
from suggestions.drafts import Draft
from suggestions.models import RULE_KINDS, Suggestion
from zeus.account_data.unlocked import unlocked_users
from zeus.errors import Conflict, NotFound
from zeus.models import Notification
from zeus.services import NotificationDraft, notification_create_many
from zeus.timeutil import user_today

log = logging.getLogger(__name__)

_CONTENT = ("title", "body", "prompt", "cta_url", "payload")


def _close(*, user, suggestion_id, status: str) -> Suggestion:
    """active → dismissed or completed, once. Repeating the same close is a no-op; the other one is a 409."""
    try:
        suggestion_id = int(suggestion_id)
    except (TypeError, ValueError):
        raise NotFound(gettext("No such suggestion.")) from None
    Suggestion.objects.filter(user=user, id=suggestion_id, status=Suggestion.Status.ACTIVE).update(
        status=status, updated_at=timezone.now()
    )
    suggestion = selectors.suggestion_get(user=user, suggestion_id=suggestion_id)
    if suggestion.status != status:
        raise Conflict(
            gettext("This suggestion is already %(status)s.") % {"status": suggestion.status}, code="SUGGESTION_CLOSED"
        )
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
    for user in unlocked_users().filter(id__in=user_ids, is_active=True):
        try:
            suggestions_refresh(user=user, now=now)
            done += 1
        except Exception:
            log.exception("refreshing suggestions for user %s failed", user.id)
    return done


def insights_store(drafts: dict[int, list[Draft]]) -> int:
    """Stores, with their inbox notifications, the drafts (per user id) that are new: no suggestion of the
    user holds the key already (in any status), and none holds the overlaps key for a window less than a week
    before. Returns how many landed; a re-run adds nothing."""
    keys = [k for ds in drafts.values() for d in ds for k in (d.dedupe_key, d.overlaps_key) if k]
    if not keys:
        return 0
    existing = selectors.existing_dedupe_keys(user_ids=list(drafts), keys=keys)
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
                    facts={"insight": draft.kind, **draft.payload},
                )
                for uid, draft in new
            ]
        )


def _on_one_event_loop(fn, *args):
    """Runs `fn` (sync, in this same thread and database connection) under one event loop.

    Each notification is pushed live when the transaction commits. From plain sync code every push starts
    an event loop of its own and so a new connection to the channel layer; under one loop the pushes share
    one connection."""
    return async_to_sync(sync_to_async(fn, thread_sensitive=True))(*args)


def _is_new(user_id: int, draft: Draft, existing: dict[tuple[int, str], dict]) -> bool:
    if (user_id, draft.dedupe_key) in existing:
        return False
    earlier = existing.get((user_id, draft.overlaps_key)) if draft.overlaps_key else None
    if earlier and earlier.get("window_end"):
        gap = dt.date.fromisoformat(draft.payload["window_end"]) - dt.date.fromisoformat(earlier["window_end"])
        return gap.days >= 7
    return True

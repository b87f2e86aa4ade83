"""The weekly review job (docs/contract/tasks.md, `suggestions.send_weekly_digest`): each batch's due users
grouped by their week, those already served left out, the reviews composed (suggestions/digest/compose.py),
then claimed and delivered in one transaction; and the review of one user and week for the page."""

import datetime as dt
import uuid
from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from suggestions.batches import BatchUser, user_batches
from suggestions.digest.compose import compose, is_due, iso_week, local_now, parse_iso_week, week_start
from suggestions.digest.reads import digest_get, digests_of
from suggestions.digest.texts import notice_facts, texts
from suggestions.sql import digests_claim
from zeus.mail import profile_language
from zeus.models import Notification
from zeus.services import NotificationDraft, notifications_add_many


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
    batches = user_batches(user_ids=user_ids, user_id_range=user_id_range)
    return sum(weekly_digest_send_batch(users=batch, now=now) for batch in batches)


def weekly_digest_send_batch(*, users: list[BatchUser], now: dt.datetime) -> int:
    """One batch: the due users grouped by their week, those already served left out (one query), the
    review composed, then claimed and delivered in one transaction: the rows are inserted ignoring conflicts
    under this run's id, and only the rows this run inserted get their inbox notification (pushed live on
    commit) and, where the user opted in, their mail."""
    by_week: dict[dt.date, list[BatchUser]] = defaultdict(list)
    for user in users:
        local = local_now(user, now)
        if is_due(local):
            by_week[week_start(local.date())].append(user)
    sent = 0
    for start, due in by_week.items():
        done = digests_of(user_ids=[u.id for u in due], iso_week=iso_week(start))
        due = [u for u in due if u.id not in done]
        if due:
            # The languages as the batch read them (zeus.mail.profile_language's rule): no second read.
            languages = {u.id: profile_language(u) for u in due}
            sent += _deliver(compose(due, start=start, now=now), start=start, languages=languages)
    return sent


def _claim(reviews: dict[int, dict], *, week: str, start: dt.date, run_id: uuid.UUID) -> list[int]:
    """Inserts the reviews, ignoring a (user, week) already stored, under this run's id (one statement,
    suggestions.sql.digests_claim); returns the users whose row this run inserted (a review already there, or
    inserted by another worker first, is not ours), newest row first, as the model's ordering reads them back."""
    inserted = digests_claim(reviews, iso_week=week, week_start=start, run_id=run_id, stamp=timezone.now())
    return [uid for uid in reversed(reviews) if uid in inserted]


def _deliver(reviews: dict[int, dict], *, start: dt.date, languages: dict[int, str]) -> int:
    run_id = uuid.uuid4()
    week = iso_week(start)
    with transaction.atomic():
        ours = _claim(reviews, week=week, start=start, run_id=run_id)
        if not ours:
            return 0
        words = texts({uid: reviews[uid] for uid in ours}, languages)
        kind, url, key = Notification.Kind.WEEKLY_DIGEST, f"/digest/{week}", f"weekly_digest:{week}"
        # Only the count is wanted: a Notification is made only of a row whose reader is online, not of each of
        # the batch's thousands (its facts decoded again from the JSON the insert returned); the readers'
        # languages, read with the batch, word those pushes without a query of their own.
        notifications_add_many(
            [
                NotificationDraft(
                    user_id=uid,
                    kind=kind,
                    title=words[uid][0][:200],
                    body=words[uid][1],
                    cta_url=url,
                    dedupe_key=key,
                    facts={"review": notice_facts(reviews[uid])},
                )
                for uid in ours
            ],
            languages=languages,
        )
    return len(ours)


def weekly_digest_for(*, user, iso_week: str, now: dt.datetime | None = None) -> dict | None:
    """The review of one user and week for the page: as sent, or composed now for a week that has begun
    and was not sent (None for a week that has not begun)."""
    start = parse_iso_week(iso_week)
    if start is None:
        return None
    stored = digest_get(user=user, iso_week=_week_of(start))
    if stored is not None:
        return stored.payload
    now = now or timezone.now()
    batch_user = next(iter(user_batches(user_ids=[user.id])), [None])[0]
    if batch_user is None or local_now(batch_user, now).date() < start:
        return None
    return compose([batch_user], start=start, now=now)[user.id]


def _week_of(start: dt.date) -> str:  # weekly_digest_for's argument hides iso_week there
    return iso_week(start)

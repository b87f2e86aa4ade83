"""The requests a user makes about their whole account, for the REST views and the pages alike."""

import datetime as dt
import logging

from django.db import transaction
from django.utils import timezone

from zeus.models import AccountExport

log = logging.getLogger(__name__)

# A pending export older than this was never picked up (the broker was down when it was asked for): asked
# again, it is enqueued again; the job's claim makes a second delivery harmless.
STALE = dt.timedelta(minutes=10)


def account_export_request(*, user) -> AccountExport:
    """A new export, built by the job once this commits; while one is still on its way, that one is returned
    rather than a second."""
    with transaction.atomic():
        waiting = (
            AccountExport.objects.select_for_update()
            .filter(user=user, status__in=[AccountExport.Status.PENDING, AccountExport.Status.RUNNING])
            .first()
        )
        if waiting is not None and not _stale(waiting):
            return waiting
        export = waiting or AccountExport.objects.create(user=user)
        transaction.on_commit(lambda: _enqueue(export), robust=True)
    return export


def _stale(export: AccountExport) -> bool:
    return export.status == AccountExport.Status.PENDING and export.created_at < timezone.now() - STALE


def _enqueue(export: AccountExport) -> None:
    # The task (and the Celery app under it) loads with the first export asked for, not at start (zeus/celery.py).
    from zeus.account_data.tasks import build_account_export

    try:
        build_account_export.delay(str(export.id))
    except Exception:
        log.exception("enqueueing export %s failed; asking again enqueues it again", export.id)

"""Erasure: asked for, the account is locked at once; seven days later everything that names the user goes.

Locked means every way in ends now (each `credential` record's rows — API and MCP tokens — and every session
of the user) and a later sign-in can only cancel (lock.py). The daily job then erases each account whose time
has come: the rows of every declared record, the user's sessions, sign-in attempts and admin history, the
export files, and the user, leaving an `ErasureRecord` with no link to anyone, and the webhook tokens' digests
so those URLs answer 410 GONE.
"""

import datetime as dt
import hashlib
import logging

from django.apps import apps
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils.translation import gettext

from zeus.account_data.registry import records
from zeus.errors import Conflict, ZeusError
from zeus.live import push_to_user
from zeus.models import AccountExport, ErasureRecord, ErasureRequest, RetiredWebhook

log = logging.getLogger(__name__)

GRACE = dt.timedelta(days=7)
BATCH = 50


def erasure_pending(*, user) -> ErasureRequest | None:
    return ErasureRequest.objects.filter(user=user).first()


class AccountLocked(ZeusError):
    status = 403
    code = "ACCOUNT_ERASURE_PENDING"


def erasure_refuse_sign_in(*, user) -> None:
    """For the token API: a locked account gets no token, only the way to cancel."""
    erasure = erasure_pending(user=user)
    if erasure is not None:
        raise AccountLocked(
            gettext(
                "This account is to be erased on %(erase_after)s. To keep it, cancel: "
                "POST /api/v1/account/delete/cancel with your username and password."
            )
            % {"erase_after": format(erasure.erase_after, "%Y-%m-%d")}
        )


def account_erasure_request(*, user, now: dt.datetime) -> ErasureRequest:
    """Schedules the erasure and locks the account in one transaction (the caller checked the password)."""
    with transaction.atomic():
        request, created = ErasureRequest.objects.get_or_create(
            user=user, defaults={"requested_at": now, "erase_after": now + GRACE}
        )
        if not created:
            raise Conflict(
                gettext("This account is already to be erased on %(erase_after)s.")
                % {"erase_after": format(request.erase_after, "%Y-%m-%d")},
                code="ERASURE_PENDING",
            )
        credentials_revoke(user=user)
        sessions_end(user=user)
        user_id = user.pk
        transaction.on_commit(lambda: push_to_user(user_id, {"type": "session.end"}))
    return request


def account_erasure_cancel(*, user) -> bool:
    """True when an erasure was pending and is now cancelled."""
    deleted, _ = ErasureRequest.objects.filter(user=user).delete()
    return bool(deleted)


def credentials_revoke(*, user) -> int:
    return sum(record.rows(user).delete()[0] for record in records() if record.credential)


def sessions_end(*, user) -> int:
    """Deletes every stored session signed in as `user`. Sessions keep the user inside their signed data, so
    each live one is decoded: an erasure is rare, and a full scan of live sessions is its price."""
    ended = []
    for session in Session.objects.iterator(chunk_size=1000):
        if session.get_decoded().get(SESSION_KEY) == str(user.pk):
            ended.append(session.session_key)
    Session.objects.filter(session_key__in=ended).delete()
    return len(ended)


def accounts_erase_due(*, now: dt.datetime, limit: int = BATCH) -> int:
    """Erases the accounts whose grace period ended by `now`; each in its own transaction, claimed with SKIP
    LOCKED so a second worker (or the command run beside the job) erases nobody twice."""
    due = ErasureRequest.objects.filter(erase_after__lte=now).order_by("erase_after").values_list("user_id", flat=True)
    erased = 0
    for user_id in list(due[:limit]):
        with transaction.atomic():
            request = (
                ErasureRequest.objects.select_for_update(skip_locked=True)
                .filter(user_id=user_id, erase_after__lte=now)
                .first()
            )
            if request is None:
                continue  # cancelled meanwhile, or another worker has it
            account_erase(user=get_user_model().objects.get(pk=user_id), requested_at=request.requested_at, now=now)
            erased += 1
    return erased


def account_erase(*, user, requested_at: dt.datetime, now: dt.datetime) -> ErasureRecord:
    """Removes everything that names `user`. Call inside a transaction: all of it, or none."""
    files = [name for name in AccountExport.objects.filter(user=user).exclude(file="").values_list("file", flat=True)]
    webhooks_retire(user=user, now=now)
    for record in records():
        record.rows(user).delete()
    sessions_end(user=user)
    _forget_sign_ins(user)
    record = ErasureRecord.objects.create(requested_at=requested_at, erased_at=now)
    user.delete()  # anything left that cascades from the user; other people's rows that named them are nulled
    transaction.on_commit(lambda: _delete_files(files))
    return record


def webhooks_retire(*, user, now: dt.datetime) -> int:
    digests = []
    for record in records():
        if record.webhook_token:
            for token in record.rows(user).values_list(record.webhook_token, flat=True):
                digests.append(RetiredWebhook(digest=token_digest(token), retired_at=now))
    RetiredWebhook.objects.bulk_create(digests, ignore_conflicts=True)
    return len(digests)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def webhook_retired(token: str) -> bool:
    """True for the token of a webhook whose owner was erased: its provider is told 410 GONE."""
    return RetiredWebhook.objects.filter(digest=token_digest(token)).exists()


def _forget_sign_ins(user) -> None:
    """What names the user without a foreign key: django-axes' attempts and logs (by username) and the admin's
    history of changes to the user's own account row (by object id)."""
    username = user.get_username()
    if apps.is_installed("axes"):
        for name in ("AccessAttempt", "AccessLog", "AccessFailureLog"):
            apps.get_model("axes", name).objects.filter(username=username).delete()
    if apps.is_installed("django.contrib.admin"):
        content_type = apps.get_model("contenttypes", "ContentType").objects.get_for_model(user)
        apps.get_model("admin", "LogEntry").objects.filter(content_type=content_type, object_id=str(user.pk)).delete()


def _delete_files(names: list[str]) -> None:
    for name in names:
        try:
            default_storage.delete(name)
        except OSError:
            log.exception("deleting the erased account's export file %s failed", name)

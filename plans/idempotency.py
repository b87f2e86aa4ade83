"""`Idempotency-Key` on POST: the same key with the same body replays the first response; another body is 422.

Keys are stored per user in the database. The key row is inserted in the same transaction as the work, so a
concurrent request with the same key waits on the unique index and then replays the committed response.
"""

import functools
import hashlib
import json

from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.exceptions import APIException
from rest_framework.response import Response

from plans.models import IdempotencyRecord
from zeus.api.errors import exception_handler
from zeus.errors import ValidationFailed, ZeusError

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255


class IdempotencyKeyReused(ZeusError):
    status = 422
    code = "IDEMPOTENCY_KEY_REUSED"


def _fingerprint(request) -> str:
    data = request.data
    if hasattr(data, "lists"):
        data = {k: v for k, v in data.lists()}
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _replay(user, key: str, fingerprint: str) -> Response | None:
    record = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if record is None:
        return None
    if record.fingerprint != fingerprint:
        raise IdempotencyKeyReused(
            _("This Idempotency-Key was already used with another request."), fields={HEADER: [_("Use a new key.")]}
        )
    return Response(record.body, status=record.status_code, headers={"Idempotent-Replayed": "true"})


def idempotent(handler):
    """Wraps an APIView's `post`."""

    @functools.wraps(handler)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return handler(view, request, *args, **kwargs)
        key = key.strip()
        if not key or len(key) > MAX_KEY_LENGTH:
            raise ValidationFailed(
                _("%(header)s must be 1 to %(max_key_length)s characters.")
                % {"header": HEADER, "max_key_length": MAX_KEY_LENGTH},
                code="INVALID_IDEMPOTENCY_KEY",
                fields={HEADER: [_("Not a valid key.")]},
            )
        fingerprint = _fingerprint(request)
        replayed = _replay(request.user, key, fingerprint)
        if replayed is not None:
            return replayed
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(
                    user=request.user, key=key, fingerprint=fingerprint, status_code=0
                )
                try:
                    with transaction.atomic():
                        response = handler(view, request, *args, **kwargs)
                except (ZeusError, APIException, Http404) as exc:
                    response = exception_handler(exc, {"view": view, "request": request})
                record.status_code = response.status_code
                record.body = response.data
                record.save(update_fields=["status_code", "body"])
            return response
        except IntegrityError:
            replayed = _replay(request.user, key, fingerprint)
            if replayed is None:
                raise
            return replayed

    return wrapper

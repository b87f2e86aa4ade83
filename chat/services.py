"""Writes of the chat app: threads, messages (a turn's reply with the tokens it spent), provider keys."""

import datetime as dt
import logging
import uuid
from decimal import Decimal

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from chat import crypto
from chat.models import Message, ProviderKey, SentToModel, Thread
from chat.usage import daily_usage_charge
from zeus.errors import ValidationFailed

log = logging.getLogger(__name__)

TITLE_LENGTH = 80


def thread_create(*, user) -> Thread:
    return Thread.objects.create(user=user)


def user_message_record(*, thread: Thread, client_id: str, text: str) -> tuple[Message, bool]:
    """Persists a user turn once per client id: a repeat returns the stored message and False."""
    now = timezone.now()
    try:
        with transaction.atomic():
            message = Message.objects.create(
                thread=thread, role=Message.Role.USER, parts=[{"type": "text", "text": text}], client_id=client_id
            )
            # The first message names the thread; Coalesce keeps a title another socket already set.
            title = " ".join(text.split())[:TITLE_LENGTH] or None
            Thread.objects.filter(pk=thread.pk).update(last_activity_at=now, title=Coalesce(F("title"), Value(title)))
    except IntegrityError:
        return Message.objects.get(thread=thread, client_id=client_id), False
    return message, True


def assistant_message_create(
    *, thread_id: uuid.UUID, parts: list[dict], metadata: dict, sent: dict | None = None
) -> Message:
    """The reply, and what its turn sent to the model (chat/turn/sent.py) when it sent anything: one commit."""
    with transaction.atomic():
        message = Message.objects.create(
            thread_id=thread_id, role=Message.Role.ASSISTANT, parts=parts, metadata=metadata
        )
        if sent is not None:
            SentToModel.objects.create(message=message, content=sent)
        Thread.objects.filter(pk=thread_id).update(last_activity_at=message.created_at)
    return message


def assistant_reply_record(
    *,
    thread_id: uuid.UUID,
    parts: list[dict] | None,
    metadata: dict | None,
    charged_to: int | None,
    day: dt.date,
    tokens: int,
    cost_usd: Decimal = Decimal(0),
    sent: dict | None = None,
) -> Message | None:
    """A turn's end: its assistant message (None: nothing to keep) and the budget tokens and USD it spent,
    added to the user's daily counter (`charged_to`; None for a staff reply, which is not charged). The two
    writes are apart on purpose: a failing usage write must never take the user's reply with it."""
    message = None
    if parts is not None:
        message = assistant_message_create(thread_id=thread_id, parts=parts, metadata=metadata, sent=sent)
    if charged_to is not None:
        try:
            daily_usage_charge(user_id=charged_to, day=day, tokens=tokens, cost_usd=cost_usd)
        except DatabaseError:
            log.exception("could not count the tokens of a turn in thread %s", thread_id)
    return message


MAX_KEY_LENGTH = 300


def provider_key_set(*, user, api_key: str) -> ProviderKey:
    if (
        not isinstance(api_key, str)
        or not 20 <= len(api_key.strip()) <= MAX_KEY_LENGTH
        or any(c.isspace() for c in api_key.strip())
    ):
        raise ValidationFailed(
            gettext("That does not look like an API key."),
            code="INVALID_API_KEY",
            fields={"api_key": [gettext("Not an API key.")]},
        )
    row, _ = ProviderKey.objects.update_or_create(user=user, defaults={"ciphertext": crypto.encrypt(api_key.strip())})
    return row


def provider_key_clear(*, user) -> None:
    ProviderKey.objects.filter(user=user).delete()

"""Writes of the chat app: threads, messages, provider keys, and the staff reply."""

import uuid

from asgiref.sync import async_to_sync
from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from chat import crypto
from chat.models import Message, ProviderKey, Thread
from chat.selectors import message_to_dict
from zeus.errors import NotFound, ValidationFailed
from zeus.models import Notification
from zeus.services import notification_create

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


def assistant_message_create(*, thread_id: uuid.UUID, parts: list[dict], metadata: dict) -> Message:
    with transaction.atomic():
        message = Message.objects.create(
            thread_id=thread_id, role=Message.Role.ASSISTANT, parts=parts, metadata=metadata
        )
        Thread.objects.filter(pk=thread_id).update(last_activity_at=message.created_at)
    return message


MAX_KEY_LENGTH = 300


def provider_key_set(*, user, api_key: str) -> ProviderKey:
    if (
        not isinstance(api_key, str)
        or not 20 <= len(api_key.strip()) <= MAX_KEY_LENGTH
        or any(c.isspace() for c in api_key.strip())
    ):
        raise ValidationFailed(
            "That does not look like an API key.", code="INVALID_API_KEY", fields={"api_key": ["Not an API key."]}
        )
    row, _ = ProviderKey.objects.update_or_create(user=user, defaults={"ciphertext": crypto.encrypt(api_key.strip())})
    return row


def provider_key_clear(*, user) -> None:
    ProviderKey.objects.filter(user=user).delete()


def admin_reply_generate(*, staff_user, thread_id, prompt: str) -> Message:
    """Runs one model turn on the thread with a staff member's internal prompt (used for that call only,
    never stored), stores the reply with metadata.admin_initiated and pushes it to the user's sockets."""
    from chat.turn import run_admin_turn

    if not getattr(staff_user, "is_staff", False):
        raise NotFound("No such thread.")
    prompt = (prompt or "").strip()
    if not prompt:
        raise ValidationFailed("The prompt is required.", fields={"prompt": ["This field is required."]})
    try:
        thread = Thread.objects.select_related("user").get(id=thread_id)
    except (Thread.DoesNotExist, ValueError, TypeError):
        raise NotFound("No such thread.") from None
    message = async_to_sync(run_admin_turn)(thread=thread, staff_user=staff_user, prompt=prompt)
    # Sockets open on this thread got the message itself; the inbox tells the user's other screens.
    text = " ".join(p["text"] for p in message.parts if p.get("type") == "text")
    notification_create(
        user=thread.user,
        kind=Notification.Kind.ADMIN_REPLY,
        title="Zeus has a new reply for you",
        body=text[:500],
        cta_url=f"/chat/{thread.id}",
    )
    return message


def admin_reply_payload(message: Message) -> dict:
    return {"type": "chat.message", "thread_id": str(message.thread_id), "message": message_to_dict(message)}

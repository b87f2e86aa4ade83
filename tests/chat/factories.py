"""Chat rows for tests, made through the chat services."""

import uuid

from chat.services import assistant_message_create, thread_create, user_message_record


def thread(owner):
    return thread_create(user=owner)


def user_message(thread, text="hello", client_id=None):
    message, _ = user_message_record(thread=thread, client_id=client_id or str(uuid.uuid4()), text=text)
    return message


def assistant_message(thread, text="hi", parts=None, metadata=None):
    return assistant_message_create(
        thread_id=thread.id, parts=parts or [{"type": "text", "text": text}], metadata=metadata or {}
    )

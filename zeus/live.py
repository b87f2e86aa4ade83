"""Live pushes to a user's open sockets through the channel layer.

The chat consumer joins `user_group(user_id)` and handles `notification.push` and `chat.message`.
A push is best effort: the row is the truth, so a layer failure is logged and never fails the write.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def push_to_user(user_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(user_group(user_id), message)
    except Exception:
        log.exception("live push to user %s failed", user_id)


async def apush_to_user(user_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(user_group(user_id), message)
    except Exception:
        log.exception("live push to user %s failed", user_id)

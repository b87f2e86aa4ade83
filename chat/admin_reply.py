"""The staff reply (docs/contract/admin.md): a staff member's internal prompt steers one model call in a
user's thread; the reply is stored with `metadata.admin_initiated`, pushed to the user's open sockets, and
announced in their inbox. Who may do it is decided here, once, for the admin page and every other caller.
"""

from asgiref.sync import async_to_sync
from django.utils.translation import gettext as _

from chat.models import AdminReply, Message, Thread
from chat.selectors import message_to_dict
from zeus.errors import NotFound, ValidationFailed, ZeusError
from zeus.live import push_to_user
from zeus.models import Notification
from zeus.services import notification_create

REPLY_PERMISSION = "chat.reply_as_assistant"


class ReplyForbidden(ZeusError):
    status = 403


def may_reply(user) -> bool:
    """The one permission check: an active staff member holding chat.reply_as_assistant."""
    return bool(user.is_active and user.is_staff and user.has_perm(REPLY_PERMISSION))


def admin_reply_send(*, staff_user, thread_id, prompt: str) -> Message:
    """Runs the steered turn and writes its audit row, whether the reply worked or not. Someone who is not
    staff learns nothing about the thread (NotFound); staff without the permission are refused (403)."""
    if not may_reply(staff_user):
        if not getattr(staff_user, "is_staff", False):
            raise NotFound(_("No such thread."))
        raise ReplyForbidden(_("You may not reply as the assistant."), code="FORBIDDEN")
    prompt = (prompt or "").strip()
    if not prompt:
        raise ValidationFailed(_("The prompt is required."), fields={"prompt": [_("This field is required.")]})
    try:
        thread = Thread.objects.select_related("user").get(id=thread_id)
    except (Thread.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("No such thread.")) from None
    # The turn (its tool catalog, the provider) is loaded by the first reply, not with the admin that links here.
    from chat.turn import run_admin_turn

    try:
        message = async_to_sync(run_admin_turn)(thread=thread, prompt=prompt)
    except ZeusError as exc:
        AdminReply.objects.create(
            staff=staff_user, thread=thread, user_id=thread.user_id, prompt=prompt, error_code=exc.code or "ERROR"
        )
        raise
    AdminReply.objects.create(staff=staff_user, thread=thread, user_id=thread.user_id, message=message, prompt=prompt)
    push_to_user(thread.user_id, message_pushed(message))
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


def message_pushed(message: Message) -> dict:
    """The channel-layer event the consumer turns into a `message` frame."""
    return {"type": "chat.message", "thread_id": str(message.thread_id), "message": message_to_dict(message)}

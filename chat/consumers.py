"""The chat websocket: thin. It checks who is there, reads frames into turn inputs (chat.turn.inputs), applies
the limits, and runs each turn (chat.turn) as a task so `stop` and a disconnect are heard while the model
streams. Its error frames' messages are in the user's language (their profile's, read when the socket opens:
the settings page that changes it is another page); the codes are what a client reads."""

import asyncio
import json
import logging

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from chat import limits
from chat.off_loop import run_off_loop
from chat.selectors import message_known, thread_get
from chat.turn import INTERNAL_ERROR_MESSAGE, BadInput, TurnInput, parse_frame, run_turn, turn_input_from_frame
from zeus.account_data.lock import CLOSE_SIGNED_OUT, session_locked
from zeus.degraded import CLOSE_UNAVAILABLE, close_reason
from zeus.dependencies import is_dependency_down
from zeus.errors import NotFound
from zeus.live import user_group
from zeus.selectors import user_languages

log = logging.getLogger(__name__)

# How long a disconnect waits for the cancelled turn to store what it has.
ABORT_GRACE_SECONDS = 10


def _opened(user, thread_id) -> tuple:
    """The thread the socket is for and the language its error frames speak, in one trip. The language is read
    on its own, not through profile_get, which would keep the profile on the socket's user for every turn."""
    thread = thread_get(user=user, thread_id=thread_id)
    return thread, user_languages(user_ids=[user.id]).get(user.id, settings.LANGUAGE_CODE)


class ChatConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.user = self.scope.get("user")
        self.turn: asyncio.Task | None = None
        self.turn_active = False
        self.closed = False
        self.thread = None
        self.language = translation.get_language()
        if self.user is None or not self.user.is_authenticated:
            await self.close()
            return
        if await run_off_loop(session_locked, self.scope.get("session")):
            await self.close()  # an account whose erasure is scheduled can only cancel it
            return
        try:
            self.thread, self.language = await run_off_loop(
                _opened, self.user, self.scope["url_route"]["kwargs"]["thread_id"]
            )
        except NotFound:
            await self.close()
            return
        self.group = user_group(self.user.id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def dispatch(self, message):
        # channels first sends close_old_connections() to its one shared sync thread before every handler: a
        # thread hop per frame, queued behind every other socket's. This consumer never uses the ORM on the
        # event loop; run_off_loop tidies the connections of the worker thread each call runs on.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code):
        self.closed = True
        if self.thread is None:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.turn is not None and not self.turn.done():
            self.turn.cancel()
            await asyncio.wait({self.turn}, timeout=ABORT_GRACE_SECONDS)

    async def emit(self, frame: dict) -> None:
        if self.closed:
            return
        try:
            await self.send(text_data=json.dumps(frame, separators=(",", ":"), default=str))
        except Exception:
            # The socket went away under us; the turn still stores its result.
            self.closed = True

    async def error(self, code: str, message: str) -> None:
        await self.emit({"type": "error", "code": code, "message": message})

    async def receive(self, text_data=None, bytes_data=None):
        with translation.override(self.language):
            await self._receive(text_data)

    async def _receive(self, text_data) -> None:
        if text_data is None:
            await self.error("BAD_FRAME", _("Frames are JSON text."))
            return
        if (
            len(text_data) > limits.MAX_FRAME_BYTES
            or len(text_data.encode("utf-8", "replace")) > limits.MAX_FRAME_BYTES
        ):
            # As daphne's own limit does (--websocket-max-message-size): the page shows the reason.
            await self.close(code=limits.CLOSE_FRAME_TOO_LARGE, reason=limits.FRAME_TOO_LARGE_REASON)
            return
        try:
            frame = parse_frame(text_data)
        except BadInput as bad:
            await self.error(bad.code, bad.message)
            return
        if frame.get("type") == "stop":
            # After done/error the task may still be writing the run audit: nothing left to stop.
            if self.turn_active and self.turn is not None and not self.turn.done():
                self.turn.cancel()
            return
        try:
            turn_input = turn_input_from_frame(frame)
        except BadInput as bad:
            await self.error(bad.code, bad.message)
            return
        await self._start(turn_input)

    async def _start(self, turn_input: TurnInput) -> None:
        # A repeated id is acknowledged and starts nothing. An admitted turn finds out itself when it stores
        # the message (and gives its rate count back), so the common path spends no query on the check; a
        # confirm decides its approval before that, so a repeated one is caught here first.
        if turn_input.is_confirm and await run_off_loop(
            message_known, thread_id=self.thread.id, client_id=turn_input.client_id
        ):
            await self.emit({"type": "ack", "id": turn_input.client_id})
            return
        if self.turn_active:
            lock, refused = None, "TURN_IN_PROGRESS"
        else:
            lock, refused = await limits.admit(user_id=self.user.id, thread_id=self.thread.id)
        if refused:
            if await run_off_loop(message_known, thread_id=self.thread.id, client_id=turn_input.client_id):
                await self.emit({"type": "ack", "id": turn_input.client_id})
            elif refused == "TURN_IN_PROGRESS":
                await self.error(refused, _("Another reply is in progress in this thread; wait for it, or stop it."))
            else:
                words = _("At most %(count)s messages a minute; wait a moment.")
                await self.error(refused, words % {"count": limits.TURNS_PER_MINUTE})
            return
        self.turn_active = True
        self.turn = asyncio.create_task(self._run(turn_input, lock))

    async def _run(self, turn_input: TurnInput, lock: limits.TurnLock) -> None:
        """The turn owns the lock from here (chat.turn.user). The socket marks itself free for the next message
        when the turn's last frame goes out, once per turn: after it this task may still write the run audit
        while the next turn, a new task, is already active."""
        with translation.override(self.language):
            await self._turn(turn_input, lock)

    async def _turn(self, turn_input: TurnInput, lock: limits.TurnLock) -> None:
        ended = False

        def end() -> None:
            nonlocal ended
            if not ended:
                ended = True
                self.turn_active = False

        async def emit(frame: dict) -> None:
            if frame["type"] in ("done", "error"):
                end()
            await self.emit(frame)

        try:
            result = await run_turn(user=self.user, thread=self.thread, turn_input=turn_input, emit=emit, lock=lock)
            if result.status == "duplicate":
                end()
                await self.emit({"type": "ack", "id": turn_input.client_id})
        except asyncio.CancelledError:
            # Stopped before the model was reached (the turn answers a later stop itself).
            if not ended:
                await emit({"type": "error", "code": "STOPPED", "message": _("Stopped.")})
        except Exception as exc:
            if is_dependency_down(exc):
                # Not our bug: the database or Redis is down (the turn could not even store that it failed).
                # The page reconnects with its backoff, as for a socket closed at the handshake.
                log.warning("chat turn in thread %s: a dependency is down (%s)", self.thread.id, type(exc).__name__)
                end()
                await self.close(code=CLOSE_UNAVAILABLE, reason=close_reason(exc))
                return
            log.exception("chat turn crashed in thread %s", self.thread.id)
            if not ended:
                await emit({"type": "error", "code": "INTERNAL_ERROR", "message": str(INTERNAL_ERROR_MESSAGE)})
        finally:
            end()

    async def session_end(self, event):
        """The user's sessions ended (erasure requested): the socket signed in with one ends too."""
        await self.close(code=CLOSE_SIGNED_OUT, reason="signed out")

    async def notification_push(self, event):
        await self.emit({"type": "notification", "notification": event["notification"]})

    async def chat_message(self, event):
        # A staff reply belongs to one thread: sockets open on another thread learn of it from the inbox.
        if event.get("thread_id") in (None, str(self.thread.id)):
            await self.emit({"type": "message", "message": event["message"]})

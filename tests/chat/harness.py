"""Turns driven without a socket: `run_turn` with a list as its emit.

`Chat` reads a frame the way the consumer does (chat.turn.turn_input_from_frame), admits it with the same
limits (chat.limits.admit), hands the lock to the turn and runs it as a task, so a `stop` is a cancel, as it
is on the socket. Everything the turn emits lands in `frames`, in order. Tests of the socket itself (the
handshake, disconnects, several sockets) open one with tests.chat.conftest.open_socket instead.
"""

import asyncio
import uuid

from asgiref.sync import sync_to_async

from chat import limits
from chat.models import Message
from chat.turn import BadInput, TurnResult, run_turn, turn_input_from_frame
from tests.chat import factories as chat_factories

_running: set[asyncio.Task] = set()


def turn_tasks() -> list[asyncio.Task]:
    """The harness's turns still running (a turn writes its run audit after `done`)."""
    return [task for task in _running if not task.done()]


async def turns_settled(timeout: float = 10) -> None:
    running = turn_tasks()
    if running:
        await asyncio.wait(running, timeout=timeout)


class Chat:
    def __init__(self, user, thread):
        self.user = user
        self.thread = thread
        self.frames: list[dict] = []
        self.results: list[TurnResult] = []
        self.task: asyncio.Task | None = None
        self.active = False  # a turn is running and has not sent done/error yet
        self._read = 0
        self._arrived = asyncio.Event()

    async def emit(self, frame: dict) -> None:
        if frame["type"] in ("done", "error"):
            self.active = False
        self.frames.append(frame)
        self._arrived.set()

    async def send(self, frame: dict) -> None:
        if frame.get("type") == "stop":
            if self.active and self.task is not None and not self.task.done():
                self.task.cancel()
            return
        try:
            turn_input = turn_input_from_frame(frame)
        except BadInput as bad:
            await self.emit({"type": "error", "code": bad.code, "message": bad.message})
            return
        lock, refused = await limits.admit(user_id=self.user.id, thread_id=self.thread.id)
        if refused:
            await self.emit({"type": "error", "code": refused, "message": refused})
            return
        self.active = True
        self.task = asyncio.create_task(self._run(turn_input, lock))
        _running.add(self.task)
        self.task.add_done_callback(_running.discard)

    async def _run(self, turn_input, lock) -> None:
        result = await run_turn(user=self.user, thread=self.thread, turn_input=turn_input, emit=self.emit, lock=lock)
        self.results.append(result)
        if result.status == "duplicate":
            self.active = False
            await self.emit({"type": "ack", "id": turn_input.client_id})

    async def receive(self, timeout: float = 10) -> dict:
        async with asyncio.timeout(timeout):
            while self._read >= len(self.frames):
                self._arrived.clear()
                await self._arrived.wait()
        self._read += 1
        return self.frames[self._read - 1]

    async def until(self, *types: str, timeout: float = 10) -> list[dict]:
        """The frames up to and including the first of `types` (done or error by default)."""
        types = types or ("done", "error")
        got = []
        while True:
            got.append(await self.receive(timeout))
            if got[-1]["type"] in types:
                return got

    async def say(self, text: str, client_id: str | None = None, timeout: float = 10) -> list[dict]:
        await self.send({"type": "user_message", "id": client_id or str(uuid.uuid4()), "text": text})
        return await self.until(timeout=timeout)

    async def event(self, event: str, payload: dict, timeout: float = 10) -> list[dict]:
        """A card's event as the page sends it (`draft_decision`, `{"draft_id": 3, "decision": "save"}`) and the
        frames of the turn it starts."""
        await self.send({"type": "ui_event", "id": str(uuid.uuid4()), "event": event, "payload": payload})
        return await self.until(timeout=timeout)

    async def nothing(self, timeout: float = 0.2) -> bool:
        await asyncio.sleep(timeout)
        return self._read >= len(self.frames)

    async def close(self, timeout: float = 10) -> None:
        """The client goes away: a running turn is cancelled, and what it stores is waited for."""
        if self.task is not None and not self.task.done():
            if self.active:
                self.task.cancel()
            await asyncio.wait({self.task}, timeout=timeout)


async def new_chat(user) -> tuple[object, Chat]:
    """A fresh thread of `user`'s and a Chat on it."""
    thread = await sync_to_async(chat_factories.thread)(user)
    return thread, Chat(user, thread)


async def stored_messages(thread, role: str | None = None) -> list[Message]:
    """The thread's stored messages, oldest first, of one role if given."""
    messages = Message.objects.filter(thread=thread).order_by("id")
    if role:
        messages = messages.filter(role=role)
    return await sync_to_async(list)(messages)

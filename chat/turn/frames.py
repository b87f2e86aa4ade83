"""The frames a turn sends, in the order of docs/contract/websocket.md: ack, phase, tool, token, spec, then
done or error. `emit` is the socket's send, or a list's append in the tests (tests/chat/harness.py)."""

from collections.abc import Awaitable, Callable

from chat.selectors import message_to_dict


async def _discard(frame: dict) -> None:
    return None


class Frames:
    def __init__(self, emit: Callable[[dict], Awaitable[None]] | None = None):
        self.emit = emit or _discard  # a staff reply has nobody listening
        self.phase_now: str | None = None

    async def ack(self, client_id: str) -> None:
        await self.emit({"type": "ack", "id": client_id})

    async def phase(self, phase: str) -> None:
        """Sent when the phase changes only: a run of tokens is one `generating`."""
        if self.phase_now != phase:
            self.phase_now = phase
            await self.emit({"type": "phase", "phase": phase})

    async def tool(self, name: str, call_id: str, status: str) -> None:
        await self.emit({"type": "tool", "name": name, "call_id": call_id, "status": status})

    async def token(self, text: str) -> None:
        await self.emit({"type": "token", "text": text})

    async def spec(self, card: dict) -> None:
        await self.emit({"type": "spec", "spec": card})

    async def done(self, message, *, tools_used: list[str], workflow: str) -> None:
        await self.emit(
            {"type": "done", "message": message_to_dict(message), "tools_used": tools_used, "workflow": workflow}
        )

    async def error(self, code: str, message) -> None:
        # str(): a lazy text is worded here, in the language the turn runs in (the reader's).
        await self.emit({"type": "error", "code": code, "message": str(message)})

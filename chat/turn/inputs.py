"""A client frame → the typed input of one turn, or a BadInput that becomes an error frame.

This is the one place a frame is read (docs/contract/websocket.md): a `user_message` carries its text, a
`ui_event` is translated into its turn text here, once, and a `confirm` carries the approval it decides.
"""

from dataclasses import dataclass

from chat import limits
from chat.ui_events import ui_event_to_turn
from zeus.errors import ValidationFailed

CLIENT_ID_LENGTH = 64
DECISIONS = ("approve", "reject")


@dataclass(frozen=True)
class TurnInput:
    """What starts a turn. `client_id` is the frame's id; `text` is what the user said or what their
    click means (a ui_event's turn text); a confirm has no text until its approval is decided."""

    client_id: str
    text: str | None = None
    event: str | None = None  # the ui_event's name; None for a user_message
    payload: dict | None = None

    @property
    def is_confirm(self) -> bool:
        return self.event == "confirm"


class BadInput(Exception):
    """A frame that cannot start a turn: becomes an error frame with this code and message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def turn_input_from_frame(frame: dict) -> TurnInput:
    """A parsed `user_message` or `ui_event` frame → its TurnInput; raises BadInput otherwise."""
    kind = frame.get("type")
    if kind == "user_message":
        return _user_message(frame)
    if kind == "ui_event":
        return _ui_event(frame)
    raise BadInput("BAD_FRAME", "Unknown frame type.")


def _client_id(frame: dict) -> str | None:
    value = frame.get("id")
    if isinstance(value, str) and 0 < len(value) <= CLIENT_ID_LENGTH and value.isprintable():
        return value
    return None


def _user_message(frame: dict) -> TurnInput:
    client_id, text = _client_id(frame), frame.get("text")
    if client_id is None or not isinstance(text, str) or not text.strip():
        raise BadInput("BAD_FRAME", "user_message needs an id and a non-empty text.")
    _check_length(text)
    return TurnInput(client_id=client_id, text=text)


def _ui_event(frame: dict) -> TurnInput:
    client_id, event, payload = _client_id(frame), frame.get("event"), frame.get("payload")
    if client_id is None or not isinstance(event, str) or not isinstance(payload, dict):
        raise BadInput("BAD_FRAME", "ui_event needs an id, an event and a payload object.")
    if event == "confirm":
        if not isinstance(payload.get("approval_id"), str) or payload.get("decision") not in DECISIONS:
            raise BadInput("BAD_FRAME", "confirm needs an approval_id and a decision (approve or reject).")
        return TurnInput(client_id=client_id, event=event, payload=payload)
    try:
        text = ui_event_to_turn(event, payload)
    except ValidationFailed as exc:
        raise BadInput("BAD_FRAME", exc.message) from None
    _check_length(text)
    return TurnInput(client_id=client_id, text=text, event=event, payload=payload)


def _check_length(text: str) -> None:
    if len(text) > limits.MAX_TEXT:
        raise BadInput("MESSAGE_TOO_LONG", f"A message is at most {limits.MAX_TEXT} characters.")

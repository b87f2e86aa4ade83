"""A client frame → the typed input of one turn, or a BadInput that becomes an error frame.

This is the one place a frame is read (docs/contract/websocket.md): a `user_message` carries its text, a
`ui_event` is translated into its turn text here, once, and a `confirm` carries the approval it decides.
"""

import json
import math
from dataclasses import dataclass

from django.utils.translation import gettext as _

from chat import limits
from chat.ui_events import CLIENT_EVENTS, ui_event_to_turn
from zeus.errors import ValidationFailed
from zeus.text import MAX_JSON_DEPTH, data_too_deep, json_too_deep, unstorable_path

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


def parse_frame(text: str) -> dict:
    """A frame's JSON text → the frame object; raises BadInput (BAD_FRAME). The nesting is bounded before
    parsing (the parser recurses: deep brackets would be a RecursionError and a 1011 close), and NaN and
    Infinity, which Python's parser accepts, are not JSON."""
    if json_too_deep(text):
        raise BadInput("BAD_FRAME", _too_deep())
    try:
        frame = json.loads(text, parse_constant=_not_json)
    except ValueError:
        raise BadInput("BAD_FRAME", _("A frame is a JSON object.")) from None
    if not isinstance(frame, dict):
        raise BadInput("BAD_FRAME", _("A frame is a JSON object."))
    return frame


def _too_deep() -> str:
    return _("A frame nests at most %(count)s levels deep.") % {"count": MAX_JSON_DEPTH}


def _not_json(constant: str):
    raise ValueError(f"{constant} is not JSON")


def turn_input_from_frame(frame: dict) -> TurnInput:
    """A parsed `user_message` or `ui_event` frame → its TurnInput; raises BadInput otherwise.

    The project's text rule (docs/security.md) holds for the whole frame: a NUL or an unpaired surrogate
    anywhere would fail the insert of the user message, or of a tool part, deep inside the turn."""
    if data_too_deep(frame):
        raise BadInput("BAD_FRAME", _too_deep())
    path = unstorable_path(frame)
    if path is not None:
        words = _("%(path)s: text with a NUL character or an unpaired surrogate.")
        raise BadInput("BAD_FRAME", words % {"path": path or "frame"})
    if not _finite(frame):
        raise BadInput("BAD_FRAME", _("Numbers in a frame are finite (no NaN or Infinity)."))
    kind = frame.get("type")
    if kind == "user_message":
        return _user_message(frame)
    if kind == "ui_event":
        return _ui_event(frame)
    raise BadInput("BAD_FRAME", _("Unknown frame type."))


def _client_id(frame: dict) -> str | None:
    value = frame.get("id")
    if isinstance(value, str) and 0 < len(value) <= CLIENT_ID_LENGTH and value.isprintable():
        return value
    return None


def _user_message(frame: dict) -> TurnInput:
    client_id, text = _client_id(frame), frame.get("text")
    if client_id is None or not isinstance(text, str) or not text.strip():
        raise BadInput("BAD_FRAME", _("user_message needs an id and a non-empty text."))
    _check_length(text)
    return TurnInput(client_id=client_id, text=text)


def _ui_event(frame: dict) -> TurnInput:
    client_id, event, payload = _client_id(frame), frame.get("event"), frame.get("payload")
    if client_id is None or not isinstance(event, str) or not isinstance(payload, dict):
        raise BadInput("BAD_FRAME", _("ui_event needs an id, an event and a payload object."))
    if event not in CLIENT_EVENTS:
        raise BadInput("BAD_FRAME", _("Unknown ui_event “%(event)s”.") % {"event": event[:40]})
    if event == "confirm":
        if not isinstance(payload.get("approval_id"), str) or payload.get("decision") not in DECISIONS:
            raise BadInput("BAD_FRAME", _("confirm needs an approval_id and a decision (approve or reject)."))
        return TurnInput(client_id=client_id, event=event, payload=payload)
    try:
        text = ui_event_to_turn(event, payload)
    except ValidationFailed as exc:
        raise BadInput("BAD_FRAME", exc.message) from None
    _check_length(text)
    return TurnInput(client_id=client_id, text=text, event=event, payload=payload)


def _check_length(text: str) -> None:
    if len(text) > limits.MAX_TEXT:
        from zeus.formatting import number_text  # Babel, imported when it is needed (tests/test_startup.py)

        words = _("A message is at most %(count)s characters.")
        raise BadInput("MESSAGE_TOO_LONG", words % {"count": number_text(limits.MAX_TEXT)})


def _finite(data) -> bool:
    if isinstance(data, float):
        return math.isfinite(data)
    if isinstance(data, dict):
        return all(_finite(v) for v in data.values())
    if isinstance(data, list):
        return all(_finite(v) for v in data)
    return True

"""One chat turn, from the frame that starts it to the message it stores (docs/architecture.md).

Read in this order, each file once:

- `inputs`      a frame becomes a typed TurnInput, or a clear error
- `data`        the Turn: what one turn knows and builds, as data (the reply under construction, its run audit)
- `frames`      what goes out to the client, in the contract's order (docs/contract/websocket.md)
- `user`        a user's turn: begin (one trip) → route → agent loop → finish
- `admin`       a staff-steered turn: the same loop, mutations withheld, nothing charged
- `agent`       route → model ⇄ tools → finish, and how each failure ends the turn
- `routing`     which workflow and tool subset (patterns first, the router model for the rest)
- `request`     what is sent to the model, in one place
- `streaming`   one streamed model call, with the app's own retries before the first token
- `tool_batch`  the tool calls of one model response, run concurrently and never cut short
- `finish`      the reply and its usage in one trip that frees the thread, then the run audit

Beside them: `conversation` (stored messages → Messages API turns) and `prompt` (the system prompt and the tool
list, the cached prefix). The model provider itself is `chat.provider`.
"""

from chat.turn.admin import run_admin_turn
from chat.turn.data import INTERNAL_ERROR_MESSAGE, Emit, TurnResult
from chat.turn.inputs import BadInput, TurnInput, parse_frame, turn_input_from_frame
from chat.turn.user import run_turn

__all__ = [
    "INTERNAL_ERROR_MESSAGE",
    "BadInput",
    "Emit",
    "TurnInput",
    "TurnResult",
    "parse_frame",
    "run_admin_turn",
    "run_turn",
    "turn_input_from_frame",
]

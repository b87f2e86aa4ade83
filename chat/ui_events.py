# STAND-IN for chat-loop tests; the chat-tools branch replaces this file at merge.
"""UI events → the deterministic user-turn text (CONTRACT §3.5)."""

import json

from zeus.errors import ValidationFailed


def ui_event_to_turn(event: str, payload: dict) -> str:
    if not isinstance(payload, dict):
        raise ValidationFailed("payload must be an object.", code="BAD_FRAME")
    if event == "action_selected" and isinstance(payload.get("prompt"), str) and payload["prompt"].strip():
        return payload["prompt"].strip()
    if event == "existing_asset_selected" and isinstance(payload.get("asset_id"), int):
        return f"Use my asset #{payload['asset_id']} for that"
    if event == "confirm_result":
        return f"I chose to {payload.get('decision')} the {payload.get('tool')} request. Result: " + json.dumps(
            payload.get("output"), sort_keys=True
        )
    raise ValidationFailed(f"Unknown or malformed ui_event {event!r}.", code="BAD_FRAME")

"""Stored messages as support staff read them: text, tool calls with pretty JSON, cards as a short summary, and
what a reply's turn sent to the model provider (read only, as the user reads it under the reply)."""

import json

from django.core.exceptions import ObjectDoesNotExist

from chat.models import Message

METADATA_KEYS = ("workflow", "decided_by", "model", "model_calls", "duration_ms", "aborted", "error", "admin_initiated")
MAX_LINES = 8


def pretty_json(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=str)


def _text(item) -> str:
    if isinstance(item, dict):
        for key in ("label", "name", "title", "prompt"):
            if item.get(key):
                label = str(item[key])
                value = item.get("value", item.get("amount"))
                return f"{label}: {value}" if value not in (None, "") and key == "label" else label
        return pretty_json(item)
    return str(item)


def card_summary(spec: dict) -> dict:
    """A card's kind, title and key fields (the lines a person would read on it)."""
    if not isinstance(spec, dict):
        return {"kind": "?", "title": "", "lines": [str(spec)]}
    lines: list[str] = []
    for key in ("status", "message", "intent", "period", "expires_at"):
        if spec.get(key):
            lines.append(f"{key}: {spec[key]}")
    if spec.get("total") is not None:
        lines.append(f"total: {spec['total']} {spec.get('currency', '')}".rstrip())
    for key in ("items", "series", "fields", "actions", "prompts", "options"):
        values = spec.get(key)
        if isinstance(values, list) and values:
            lines.extend(f"• {_text(v)}" for v in values[:MAX_LINES])
            if len(values) > MAX_LINES:
                lines.append(f"… and {len(values) - MAX_LINES} more")
    return {"kind": spec.get("kind", "?"), "title": spec.get("title") or spec.get("tool") or "", "lines": lines}


def message_view(message: Message) -> dict:
    parts = []
    for part in message.parts or []:
        kind = part.get("type")
        if kind == "text":
            parts.append({"type": "text", "text": part.get("text", "")})
        elif kind == "tool":
            parts.append(
                {
                    "type": "tool",
                    "name": part.get("name"),
                    "call_id": part.get("call_id"),
                    "is_error": bool(part.get("is_error")),
                    "input": pretty_json(part.get("input")),
                    "output": pretty_json(part.get("output")),
                }
            )
        elif kind == "spec":
            parts.append({"type": "spec", "card": card_summary(part.get("spec")), "raw": pretty_json(part.get("spec"))})
        else:
            parts.append({"type": "other", "raw": pretty_json(part)})
    metadata = message.metadata or {}
    try:
        sent = pretty_json(message.sent_to_model.content)  # select_related by the caller
    except ObjectDoesNotExist:
        sent = None
    facts = [(key, metadata[key]) for key in METADATA_KEYS if key in metadata]
    usage = metadata.get("usage") or {}
    return {
        "id": message.pk,
        "role": message.role,
        "created_at": message.created_at,
        "parts": parts,
        "facts": facts,
        "usage": ", ".join(f"{k} {v}" for k, v in usage.items()),
        "admin_initiated": bool(metadata.get("admin_initiated")),
        "aborted": bool(metadata.get("aborted")),
        "sent_to_model": sent,
    }

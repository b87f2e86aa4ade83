# STAND-IN for chat-loop tests; the chat-tools branch replaces this file at merge.
"""A tiny deterministic router with the contract's names; ambiguous text returns None."""

import re
from dataclasses import dataclass

WORKFLOWS = (
    "coach",
    "bundle_create",
    "asset_create",
    "asset_update",
    "asset_delete",
    "create",
    "update",
    "delete",
    "inspect",
)
_READ = ("list_transactions",)
WORKFLOW_TOOLS: dict[str, tuple[str, ...]] = {
    "coach": _READ,
    "bundle_create": ("list_transactions", "create_manual_transaction"),
    "asset_create": _READ,
    "asset_update": _READ,
    "asset_delete": _READ,
    "create": ("list_transactions", "create_manual_transaction"),
    "update": ("list_transactions", "update_manual_transaction"),
    "delete": ("list_transactions", "delete_manual_transaction"),
    "inspect": _READ,
}


@dataclass(frozen=True)
class Route:
    workflow: str
    tools: tuple[str, ...]
    decided_by: str


_PATTERNS = (
    ("delete", re.compile(r"\b(delete|remove|xóa)\b", re.I)),
    ("update", re.compile(r"\b(change|update|edit|sửa)\b", re.I)),
    ("create", re.compile(r"\b(add|record|spent|paid)\b|\d+(k|tr|m)\b", re.I)),
    ("inspect", re.compile(r"\b(list|show|transactions?|how much)\b", re.I)),
)

ROUTER_SYSTEM_PROMPT = "Classify the user's request into one workflow. Reply with the workflow name only: " + ", ".join(
    WORKFLOWS
)


def route_by_patterns(user_texts: list[str], prior_assistant_text: str | None = None) -> Route | None:
    text = user_texts[-1] if user_texts else ""
    hits = [w for w, pattern in _PATTERNS if pattern.search(text)]
    if len(hits) != 1:
        return None
    return Route(hits[0], WORKFLOW_TOOLS[hits[0]], "pattern")


def router_user_prompt(user_texts: list[str], prior_assistant_text: str | None) -> str:
    return "\n".join(f"User: {t}" for t in user_texts[-3:])


def route_from_model_reply(reply_text: str) -> Route:
    word = (reply_text or "").strip().lower()
    if word in WORKFLOWS:
        return Route(word, WORKFLOW_TOOLS[word], "model")
    return Route("coach", WORKFLOW_TOOLS["coach"], "default")

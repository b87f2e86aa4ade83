"""What a rule or a detector proposes, before it is a row."""

from dataclasses import dataclass, field
from urllib.parse import quote


@dataclass(frozen=True)
class Draft:
    kind: str
    dedupe_key: str
    title: str
    body: str
    prompt: str = ""
    cta_url: str = ""
    payload: dict = field(default_factory=dict)
    # An insight about a rolling 7-day window stays quiet when this key exists for a window that overlaps
    # its own (the same spike seen again the next week): payload["window_end"] on both says when.
    overlaps_key: str = ""


def chat_url(prompt: str) -> str:
    """A call to action that opens the chat with the prompt typed in."""
    return "/chat?prompt=" + quote(prompt, safe="")

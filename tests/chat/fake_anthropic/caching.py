"""Prompt caching as the real API does it: the prefix is tools → system → messages; an entry is written at each
cache_control breakpoint whose prefix reaches the model's minimum cacheable length; a breakpoint reads the
longest prefix already cached at any block boundary up to `lookback_blocks` before it. Tokens are estimated as
characters / 4."""

import hashlib
import json
import threading

from tests.chat.fake_anthropic.models import profile

LOOKBACK_BLOCKS = 20


def strip_cache(value):
    """The value without its cache_control markers: what the cache and the signatures compare."""
    if isinstance(value, dict):
        return {k: strip_cache(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [strip_cache(v) for v in value]
    return value


def prefix_elements(body: dict):
    """(serialized element, has breakpoint) in cache order: tools, system, then message blocks."""
    for tool in body.get("tools") or []:
        yield json.dumps(strip_cache(tool), sort_keys=True), "cache_control" in tool
    system = body.get("system")
    for block in [{"type": "text", "text": system}] if isinstance(system, str) else system or []:
        yield json.dumps(strip_cache(block), sort_keys=True), "cache_control" in block
    for message in body["messages"]:
        content = message["content"]
        for block in [{"type": "text", "text": content}] if isinstance(content, str) else content:
            yield message["role"] + json.dumps(strip_cache(block), sort_keys=True), "cache_control" in block


def tokens(n_chars: int) -> int:
    return max(1, n_chars // 4)


class PromptCache:
    """The prefixes cached so far, per model, and the usage a request reports against them."""

    def __init__(self):
        self._entries: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def usage(self, body: dict, *, lookback_blocks: int = LOOKBACK_BLOCKS) -> dict:
        """What was read, what was written past it up to the last breakpoint, and the rest as input."""
        model = body["model"]
        minimum = profile(model).min_cacheable
        hashes, totals, breakpoints = [], [], []
        prefix = hashlib.sha256()
        total = 0
        for element, breakpoint in prefix_elements(body):
            prefix.update(element.encode())
            total += len(element)
            hashes.append(prefix.hexdigest())
            totals.append(total)
            if breakpoint:
                breakpoints.append(len(hashes) - 1)
        with self._lock:
            read = written = 0
            for at in breakpoints:
                if tokens(totals[at]) < minimum:
                    continue
                # The lookback: the longest prefix cached at this block boundary or up to 20 before it.
                for back in range(at, max(-1, at - lookback_blocks), -1):
                    if (model, hashes[back]) in self._entries:
                        read = max(read, totals[back])
                        break
            for at in breakpoints:
                if tokens(totals[at]) >= minimum:
                    self._entries.add((model, hashes[at]))
                    written = max(written, totals[at])
        write = max(0, written - read)
        return {
            "input_tokens": tokens(max(1, total - read - write)),
            "cache_read_input_tokens": tokens(read) if read else 0,
            "cache_creation_input_tokens": tokens(write) if write else 0,
        }

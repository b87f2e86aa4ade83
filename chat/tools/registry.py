"""The one catalog, in its fixed order: reads, mutations, UI. Tool definitions are built once, so the bytes
sent to the model never change between calls (the prompt cache keys on them)."""

import copy

from chat.tools import mutations, reads, ui
from chat.tools.base import Tool

CATALOG: dict[str, Tool] = {t.name: t for t in (*reads.TOOLS, *mutations.TOOLS, *ui.TOOLS)}
TOOL_NAMES: tuple[str, ...] = tuple(CATALOG)
_ORDER = {name: i for i, name in enumerate(TOOL_NAMES)}


def tool_definitions(names) -> list[dict]:
    """Anthropic tool dicts for these names, in catalog order; unknown names are left out."""
    chosen = sorted({n for n in names if n in CATALOG}, key=_ORDER.__getitem__)
    # Copies, so a caller adding cache_control to the last one cannot change the catalog.
    return [copy.deepcopy(CATALOG[n].definition()) for n in chosen]

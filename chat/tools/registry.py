"""The one catalog, in its fixed order: reads, mutations, money in (bank texts, rules), UI. Everything else
is derived from the tools' own declarations: each workflow's tool subset, the deletes behind a confirmation,
the cards. Tool definitions are built once, so the bytes sent to the model never change between calls (the
prompt cache keys on them)."""

import copy
import logging

from django.utils import translation

from chat.tools import ahead, money_in, mutations, reads, transfers, ui
from chat.tools.base import CONFIRM, WORKFLOWS, Tool, ToolOutcome

log = logging.getLogger(__name__)

CATALOG: dict[str, Tool] = {
    t.name: t for t in (*reads.TOOLS, *mutations.TOOLS, *transfers.TOOLS, *money_in.TOOLS, *ahead.TOOLS, *ui.TOOLS)
}
TOOL_NAMES: tuple[str, ...] = tuple(CATALOG)
_ORDER = {name: i for i, name in enumerate(TOOL_NAMES)}
# Each workflow's tools, in catalog order: the router offers exactly these.
WORKFLOW_TOOLS: dict[str, tuple[str, ...]] = {
    workflow: tuple(name for name, tool in CATALOG.items() if workflow in tool.workflows) for workflow in WORKFLOWS
}
# The tools whose call only asks the user to confirm on a card (a `confirm` ui_event decides it).
CONFIRMABLE: tuple[str, ...] = tuple(name for name, tool in CATALOG.items() if tool.family == CONFIRM)


def card_for(tool_name: str, tool_input: dict, output: dict, is_error: bool) -> dict | None:
    """The chat card for one tool result, or None (reads other than summarize_spending, and every error).
    A card that cannot be drawn is logged and left out: the effect it describes may already be committed."""
    tool = CATALOG.get(tool_name)
    if tool is None or tool.card is None or is_error or not isinstance(output, dict) or "error" in output:
        return None
    try:
        return tool.card(tool_name, tool_input or {}, output)
    except Exception:
        log.exception("no card for %s", tool_name)
        return None


def card_of(outcome: ToolOutcome, *, language: str) -> dict | None:
    """The card of a call, its text in the reader's language (the card is stored as it is drawn)."""
    if not outcome.tool:
        return None
    with translation.override(language):
        return card_for(outcome.tool, outcome.tool_input, outcome.output, outcome.is_error)


def tool_definitions(names) -> list[dict]:
    """Anthropic tool dicts for these names, in catalog order; unknown names are left out."""
    chosen = sorted({n for n in names if n in CATALOG}, key=_ORDER.__getitem__)
    # Copies, so a caller adding cache_control to the last one cannot change the catalog.
    return [copy.deepcopy(CATALOG[n].definition()) for n in chosen]

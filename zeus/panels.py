"""Pages made of other apps' panels: the home and the settings page (docs/pages.md).

`zeus` serves `/` and `/settings` but sits at the bottom of the import order, so it cannot read plans, goals or
chat itself. Each app registers the panels it owns from its `AppConfig.ready()`, with a function that reads
through that app's own selectors; zeus only lays them out in order. Nothing imports upward.
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Panel:
    page: str  # "home" or "settings"
    key: str  # unique on its page; also the element id of its section
    order: int  # smaller first
    template: str
    context: Callable  # (request, today) -> dict for the template, or None to leave the panel out
    wide: bool = False  # spans the page's full width on a desktop


_REGISTRY: dict[str, dict[str, Panel]] = {}


def register(panel: Panel) -> None:
    """Idempotent by (page, key): `ready()` may run more than once in tests."""
    _REGISTRY.setdefault(panel.page, {})[panel.key] = panel


def panels(page: str) -> list[Panel]:
    return sorted(_REGISTRY.get(page, {}).values(), key=lambda p: (p.order, p.key))


@dataclass(frozen=True)
class RenderedPanel:
    panel: Panel
    data: dict


def shared(request, key, compute):
    """A read two panels of one page both need (this month's plan, this month's spending by category), made
    once per request: the home stays a fixed, small number of queries."""
    memo = request.__dict__.setdefault("panel_memo", {})
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def panels_for(page: str, request, today) -> list[RenderedPanel]:
    out = []
    for panel in panels(page):
        data = panel.context(request, today)
        if data is not None:
            out.append(RenderedPanel(panel=panel, data=data))
    return out

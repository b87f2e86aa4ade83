"""Python's cyclic garbage collector in a server process (docs/serving.md).

`freeze_loaded()` is for a server process once it has loaded the app: what is alive then (settings, models,
the URLconf and every view module it imports, some 350,000 objects) lives as long as the process and holds
nothing to free, yet each full pass walked it all — measured in a worker serving the plan view, one full pass
every two thousand requests, each a stop of some 0.2 s on this machine for every request in flight. Frozen,
those objects are left out of every pass (Python's gc.freeze, meant for servers after start-up).
"""

import gc


def freeze_loaded() -> None:
    """Loads the URLconf (so the views' modules are imported now, not at the first request), collects what
    start-up left over, and moves everything alive into the collector's permanent generation."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the property imports the URLconf and its views
    gc.collect()
    gc.freeze()

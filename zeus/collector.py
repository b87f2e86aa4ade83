"""Python's cyclic garbage collector held off while a batch job builds its rows (docs/PERFORMANCE.md).

A batch of the nightly and weekly jobs builds tens of thousands of small containers (rows, tuples, the dicts
of a review) that all live until the batch is done and hold no cycles. Each allocation counts towards the
collector's next pass, and every few passes it walks the whole heap, Django's own objects included: in the
recurring detection and the weekly review that walking was a fifth to a third of the batch's Python time,
and it freed nothing. `paused()` disables the collector for the block and turns it back on after (the next
allocations then collect as usual); what the batch leaves unreachable is reference-counted away as before,
only cycles wait for the next pass.

Process-wide, as the collector is: the blocks may nest and run on several threads at once; the collector is
back on when the last of them ends, and left alone if something else had turned it off.

`freeze_loaded()` is for a server process once it has loaded the app: what is alive then (settings, models,
the URLconf and every view module it imports, some 350,000 objects) lives as long as the process and holds
nothing to free, yet each full pass walked it all — measured in a worker serving the plan view, one full pass
every two thousand requests, each a stop of some 0.2 s on this machine for every request in flight. Frozen,
those objects are left out of every pass (Python's gc.freeze, meant for servers after start-up).
"""

import contextlib
import gc
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_holders = 0
_we_disabled = False


def freeze_loaded() -> None:
    """Loads the URLconf (so the views' modules are imported now, not at the first request), collects what
    start-up left over, and moves everything alive into the collector's permanent generation."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the property imports the URLconf and its views
    gc.collect()
    gc.freeze()


@contextlib.contextmanager
def paused() -> Iterator[None]:
    global _holders, _we_disabled
    with _lock:
        if _holders == 0:
            _we_disabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _we_disabled:
                gc.enable()
                _we_disabled = False

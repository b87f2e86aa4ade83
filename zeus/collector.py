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
"""

import contextlib
import gc
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_holders = 0
_we_disabled = False


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

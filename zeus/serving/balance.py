"""How many connections each of gunicorn's workers holds, in memory they share, so that a new connection
goes to the worker holding fewest (docs/serving.md, "Connections between workers").

Every worker polls the one listening socket, and whichever wakes first accepts. A burst of new connections
goes mostly to the worker that woke first (ten clients connecting at once split 7/3 and 8/2, measured), and
a kept-alive connection stays with the worker that accepted it for as long as its client keeps it. With this
table a worker leaves a waiting connection to a sibling that holds fewer, and accepts it itself only if none
has after PATIENCE (a sibling stuck or gone).

The arrays are allocated when this module is imported, in gunicorn's master (it imports the worker class
before it forks), so every worker maps the same memory. A slot is a worker's: its pid and its count; a slot
whose pid no longer runs is free again.
"""

import ctypes
import multiprocessing
import os
import time

SLOTS = 64
# How long a worker leaves a waiting connection to a sibling holding fewer before it accepts it anyway: more
# than a GIL switch interval (20 ms in the workers, gunicorn.conf.py), the longest a busy sibling's poller
# waits to run.
PATIENCE = 0.05
# A pause between looks while leaving a connection to a sibling: the listening socket stays readable until
# the sibling accepts, and the poller would otherwise spin.
PAUSE = 0.0002

_pids = multiprocessing.RawArray(ctypes.c_int, SLOTS)
_held = multiprocessing.RawArray(ctypes.c_int, SLOTS)
_claiming = multiprocessing.Lock()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # the pid runs, as another user's process: counted as running, waited for PATIENCE at most
    return True


class Share:
    """This worker's slot in the table, taken in the worker process once it has forked."""

    def __init__(self):
        pid = os.getpid()
        with _claiming:
            for slot in range(SLOTS):
                if not _pids[slot] or _pids[slot] == pid or not _running(_pids[slot]):
                    _pids[slot], _held[slot] = pid, 0
                    self.slot = slot
                    break
            else:
                self.slot = None  # more workers than slots: this one accepts as gunicorn alone would
        self._waiting_since = self._last_look = 0.0

    def hold(self, connections: int) -> None:
        if self.slot is not None:
            _held[self.slot] = connections

    def fewest(self) -> bool:
        """Whether no running sibling holds fewer connections than this worker."""
        if self.slot is None:
            return True
        mine = _held[self.slot]
        for slot in range(SLOTS):
            pid = _pids[slot]
            if pid and slot != self.slot and _held[slot] < mine:
                if _running(pid):
                    return False
                _pids[slot] = 0  # a worker killed without a word: its slot is free
        return True

    def leave_to_sibling(self) -> bool:
        """Whether to leave the waiting connection to a sibling (after a PAUSE), or accept it now."""
        if self.fewest():
            return False
        now = time.monotonic()
        if now - self._last_look > 2 * PAUSE + 0.001:  # a new wait, not the one being looked at again
            self._waiting_since = now
        self._last_look = now
        if now - self._waiting_since >= PATIENCE:
            return False
        time.sleep(PAUSE)
        return True

    def release(self) -> None:
        if self.slot is not None and _pids[self.slot] == os.getpid():
            _pids[self.slot], _held[self.slot] = 0, 0

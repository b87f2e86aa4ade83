"""gunicorn's two workers share new connections: each goes to the worker holding fewest (zeus/serving/balance.py),
and a kept-alive connection is closed after WEB_KEEPALIVE_REQUESTS requests (zeus/serving/gunicorn_worker.py).

The Procfile's `web` line runs with two workers; which worker holds a connection is read from /proc (the
worker's socket descriptors against the kernel's table of TCP sockets on the port), so the test watches
what the kernel sees, not what the workers report about themselves.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests import processes
from zeus.serving import balance

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc")
REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _workers(master: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            if ppid == master:
                found.append(int(entry.name))
    return found


def _holders(master: int, port: int) -> dict[int, int]:
    """Client port -> the pid of the worker holding that connection to `port`."""
    remote_of = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
        if int(local.rsplit(":", 1)[1], 16) == port and state != "0A":  # 0A: listening
            remote_of[f"socket:[{inode}]"] = int(remote.rsplit(":", 1)[1], 16)
    held = {}
    for pid in _workers(master):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target in remote_of:
                held[remote_of[target]] = pid
    return held


def _open(port: int, count: int) -> list[socket.socket]:
    """`count` connections opened at once, then one request answered on each (so each has been accepted)."""
    clients = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(count)]
    for client in clients:
        client.sendall(REQUEST)
    for client in clients:
        assert client.recv(4096).startswith(b"HTTP/1.1 200")
    return clients


def _count(master: int, port: int, clients) -> Counter:
    held = _holders(master, port)
    return Counter(held.get(c.getsockname()[1]) for c in clients)


@pytest.fixture
def web():
    if shutil.which("sh") is None:
        pytest.skip("needs a POSIX shell")
    port = processes.free_port()
    procfile = dict(
        line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line and line[0] != "#"
    )
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("WSGI_SOCKET", "HOST")},
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "WEB_KEEPALIVE_REQUESTS": "5",
        "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }
    proc = subprocess.Popen(
        ["sh", "-c", f"exec {procfile['web']}"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        # Both workers booted: each has held a connection (one at a time, each goes to the one holding none).
        deadline, seen = time.monotonic() + 90, set()
        while len(seen) < 2:
            assert proc.poll() is None and time.monotonic() < deadline, "gunicorn did not start two workers"
            try:
                (client,) = _open(port, 1)
            except OSError:
                time.sleep(0.2)
                continue
            seen.add(_holders(proc.pid, port).get(client.getsockname()[1]))
            seen.discard(None)
            client.close()
            time.sleep(0.05)
        yield proc.pid, port
    finally:
        processes.stop(proc)


def _settled(master: int, port: int, expect: int) -> None:
    """Until the workers hold `expect` connections in all (a closed client's socket closed by its worker)."""
    deadline = time.monotonic() + 10
    while len(_holders(master, port)) != expect:
        assert time.monotonic() < deadline, _holders(master, port)
        time.sleep(0.05)


def test_a_burst_of_connections_is_shared_between_the_workers_and_a_new_one_goes_to_the_emptier(web):
    master, port = web
    _settled(master, port, 0)
    clients = _open(port, 10)
    counts = _count(master, port, clients)
    assert None not in counts and len(counts) == 2, counts
    assert max(counts.values()) - min(counts.values()) <= 2, counts

    # One worker's connections end: the next ones all go to it, the worker holding fewest.
    emptied = counts.most_common()[-1][0]
    held = _holders(master, port)
    staying = []
    for client in clients:
        if held[client.getsockname()[1]] == emptied:
            client.close()
        else:
            staying.append(client)
    _settled(master, port, len(staying))
    more = []
    for _ in range(3):
        more += _open(port, 1)
    assert _count(master, port, more) == Counter({emptied: 3})
    for client in staying + more:
        client.close()


def test_a_kept_alive_connection_is_closed_after_its_last_request(web):
    _, port = web
    client = socket.create_connection(("127.0.0.1", port), timeout=10)
    with client, client.makefile("rb") as answers:
        for number in range(1, 6):
            client.sendall(REQUEST)
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                head += answers.readline()
            assert head.startswith(b"HTTP/1.1 200")
            length = int(next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1])
            answers.read(length)
            assert (b"Connection: close" in head) == (number == 5), (number, head)
        assert answers.read() == b""  # and closed by the server


def _sibling(holding: int, *, stay: bool) -> int:
    """A forked process that takes a slot and holds `holding` connections; it exits without releasing the
    slot (a worker killed), or sleeps until killed when `stay`."""
    pid = os.fork()
    if pid == 0:
        balance.Share().hold(holding)
        if stay:
            time.sleep(60)
        os._exit(0)
    if not stay:
        os.waitpid(pid, 0)
    return pid


def test_a_worker_gone_holding_fewest_is_not_waited_for_and_a_running_one_only_for_a_while():
    mine = balance.Share()
    mine.hold(3)
    siblings = []
    try:
        siblings.append(_sibling(0, stay=False))
        assert mine.fewest()  # the sibling holding none no longer runs: not waited for
        siblings.append(_sibling(1, stay=True))  # takes the slot the gone one left
        deadline = time.monotonic() + 10
        while mine.fewest():  # until the running sibling has taken its slot
            assert time.monotonic() < deadline
            time.sleep(0.01)
        started = time.monotonic()
        while mine.leave_to_sibling():
            pass
        # Left to the sibling for PATIENCE, then accepted here: a sibling that does not accept may be stuck.
        assert time.monotonic() - started >= balance.PATIENCE
        os.kill(siblings[1], 9)
        os.waitpid(siblings[1], 0)
        assert mine.fewest()
    finally:
        mine.release()
        for pid in siblings:
            try:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass

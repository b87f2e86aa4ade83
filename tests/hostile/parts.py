"""Real processes and links for fault tests: the app under daphne (`python -m zeus.ws_serve`, as the Procfile's
`ws` starts it) in its own process, reached through links (TCP forwarders) to PostgreSQL and Redis that a test
can cut and restore. The machine's own services are never stopped: other test runs use them."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2

from tests import processes

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PORTS = range(8701, 8800)
_taken: set[int] = set()
_lock = threading.Lock()


def free_port() -> int:
    with _lock:
        for port in PORTS:
            if port in _taken:
                continue
            with socket.socket() as probe:
                try:
                    probe.bind(("127.0.0.1", port))
                except OSError:
                    continue
            _taken.add(port)
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def wait_for_port(port: int, *, timeout: float = 30, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the process exited with {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def _connect(target: tuple[str, int] | str) -> socket.socket:
    if isinstance(target, tuple):
        return socket.create_connection(target)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(target)
    except OSError:
        sock.close()
        raise
    return sock


class Link:
    """A TCP forwarder from a free port to `target`, a (host, port) or a Unix socket's path. `cut()` closes the
    port and every connection through it (to the app, the dependency is gone: refused connections, reset
    sockets); `restore()` opens it again."""

    def __init__(self, target: tuple[str, int] | str):
        self.target = target
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self.restore()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            _hang_up(listener)
        for sock in self._open:
            _hang_up(sock)
        self._open.clear()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = _connect(self.target)
            except OSError:
                _hang_up(client)
                continue
            self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            _hang_up(source)
            _hang_up(sink)


def _hang_up(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


class AppProcess:
    """The Procfile's `ws` (`python -m zeus.ws_serve zeus.asgi:application`) in a process of its own, with the
    environment given."""

    def __init__(self, env: dict[str, str], *, log_path: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        full_env = {k: v for k, v in os.environ.items() if k not in ("CI",)}
        full_env.update({"DJANGO_SETTINGS_MODULE": "zeus.settings.test", "PYTHONPATH": str(ROOT), **env})
        self._log = open(log_path, "wb")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "zeus.ws_serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "--websocket-max-message-size",
                "65536",
                "zeus.asgi:application",
            ],
            cwd=ROOT,
            env=full_env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, process=self.process)
        self.http = httpx2.Client(base_url=self.url, timeout=20)

    def stop(self) -> None:
        self.http.close()
        processes.stop(self.process)
        self._log.close()


class WorkerProcess:
    """`celery -A zeus worker` in a process of its own (its own process group, so SIGKILL takes it whole)."""

    def __init__(self, env: dict[str, str], *, log_path: Path):
        full_env = {k: v for k, v in os.environ.items() if k not in ("CI",)}
        full_env.update(
            {
                "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
                "PYTHONPATH": str(ROOT),
                "CELERY_TASK_ALWAYS_EAGER": "false",
                **env,
            }
        )
        self._log = open(log_path, "ab")  # noqa: SIM115 (closed in kill/stop)
        self.process = subprocess.Popen(
            [
                str(BIN / "celery"),
                "-A",
                "zeus",
                "worker",
                "-P",
                "solo",
                "-l",
                "warning",
                "--without-heartbeat",
                "--without-mingle",
                "--without-gossip",
            ],
            cwd=ROOT,
            env=full_env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self) -> None:
        """SIGKILL, as the kernel's OOM killer or a lost machine would: no shutdown, no ack, no cleanup."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self._log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        if not self._log.closed:
            self._log.close()


class RedisServer:
    """A private redis-server on a free port, which a test may restart (never the machine's own)."""

    def __init__(self, *, log_path: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._log_path = log_path
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=open(self._log_path, "ab"),  # noqa: SIM115 (the child holds it)
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, process=self.process)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def restart(self) -> None:
        self.stop()
        self.start()


def backends_waiting_on_a_lock(cursor, application_name: str) -> list[int]:
    """The PostgreSQL backends of the app under test (its application_name) that wait on a lock."""
    cursor.execute(
        "SELECT pid FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = 'Lock'",
        [application_name],
    )
    return [row[0] for row in cursor.fetchall()]


def eventually(check, timeout: float = 20.0, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not hold in time")
        time.sleep(interval)

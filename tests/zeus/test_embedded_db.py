"""The embedded PostgreSQL (zeus/embedded_db.py): started once, found running by the next process, shared by
processes that start at once, stopped cleanly, and started again over what a killed server left behind. These
run a server of their own over a temporary data directory, whatever database the suite itself uses."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import environ
import psycopg
import pytest
from django.conf import settings
from django.db import connection

from zeus import embedded_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def data_dir():
    # Not under pytest's base temporary directory: a pytest starting meanwhile makes that private again, and as
    # root the server runs as a system user of its own that must reach its data.
    where = Path(tempfile.mkdtemp(prefix="zeus-embedded-"))
    yield where
    embedded_db.stop(where)
    shutil.rmtree(where)


def _parsed(url: str) -> dict:
    return environ.Env.db_url_config(url)


def _select_one(url: str) -> int:
    db = _parsed(url)
    with psycopg.connect(host=db["HOST"], dbname=db["NAME"], user=db["USER"], connect_timeout=2) as conn:
        return conn.execute("SELECT 1").fetchone()[0]


def _postmaster_pid(data_dir: Path) -> int:
    return int((data_dir / "postgres" / "postmaster.pid").read_text().splitlines()[0])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _gone(pid: int, within: float = 10) -> bool:
    deadline = time.monotonic() + within
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_the_default_data_lives_in_the_checkout_and_git_ignores_it():
    assert Path(settings.BASE_DIR) / ".data" == embedded_db.DATA_DIR
    ignored = subprocess.run(["git", "check-ignore", "-q", ".data/postgres/PG_VERSION"], cwd=ROOT, check=False)
    assert ignored.returncode == 0


def test_without_database_url_the_suite_runs_on_the_embedded_server_else_on_the_one_named():
    host = connection.settings_dict["HOST"]
    if os.environ.get("DATABASE_URL"):
        assert host == _parsed(os.environ["DATABASE_URL"])["HOST"]
    else:
        assert Path(host).is_relative_to(embedded_db.DATA_DIR)


def test_it_starts_a_server_with_the_database_and_the_next_call_finds_it_running(data_dir):
    url = embedded_db.database_url(data_dir, name="zeus_here")
    db = _parsed(url)

    assert db["ENGINE"] == "django.db.backends.postgresql" and db["NAME"] == "zeus_here"
    assert Path(db["HOST"]).is_relative_to(data_dir)
    assert _select_one(url) == 1
    pid = _postmaster_pid(data_dir)
    started = time.perf_counter()
    assert embedded_db.database_url(data_dir, name="zeus_here") == url
    assert time.perf_counter() - started < 0.05  # found running: no start, no lock
    assert _postmaster_pid(data_dir) == pid


def test_processes_starting_at_once_share_one_server(data_dir):
    embedded_db.stop(data_dir)
    code = f"from zeus import embedded_db; print(embedded_db.database_url({str(data_dir)!r}, name='zeus_race'))"
    children = [
        subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    results = [child.communicate(timeout=120) for child in children]

    assert [child.returncode for child in children] == [0, 0, 0], [err.decode() for _, err in results]
    urls = {out.decode().strip() for out, _ in results}
    assert len(urls) == 1
    assert _select_one(urls.pop()) == 1
    assert _alive(_postmaster_pid(data_dir))


def test_stop_ends_the_server_and_a_second_stop_finds_none(data_dir):
    url = embedded_db.database_url(data_dir)
    pid = _postmaster_pid(data_dir)

    assert embedded_db.stop(data_dir) is True
    assert _gone(pid)
    assert not (data_dir / "postgres" / "postmaster.pid").exists()  # a clean shutdown removes it
    with pytest.raises(psycopg.OperationalError):
        _select_one(url)
    assert embedded_db.stop(data_dir) is False


def test_a_killed_server_is_started_again_over_what_it_left(data_dir):
    url = embedded_db.database_url(data_dir)
    pid = _postmaster_pid(data_dir)
    os.kill(pid, signal.SIGKILL)
    assert _gone(pid)

    assert (data_dir / "postgres" / "postmaster.pid").exists()
    assert embedded_db.database_url(data_dir) == url
    assert _select_one(url) == 1
    assert _postmaster_pid(data_dir) != pid


def test_a_pid_file_left_by_a_killed_server_naming_a_live_process_does_not_stop_the_next_start(data_dir):
    url = embedded_db.database_url(data_dir)
    pid_file = data_dir / "postgres" / "postmaster.pid"
    left = pid_file.read_text().splitlines()
    embedded_db.stop(data_dir)
    # The system has given the dead server's pid to another process: to a naive check, the server still runs.
    stranger = subprocess.Popen(["sleep", "60"])
    try:
        pid_file.write_text("\n".join([str(stranger.pid), *left[1:]]) + "\n")
        assert embedded_db.database_url(data_dir) == url
        assert _select_one(url) == 1
        assert _postmaster_pid(data_dir) != stranger.pid
    finally:
        stranger.kill()
        stranger.wait()

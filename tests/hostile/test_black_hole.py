"""A PostgreSQL that stops answering (a black hole, not a refusal) is an honest 503 in seconds.

The database is reached through a TCP listener this test owns that accepts connections and never answers
(the machine's PostgreSQL is never touched); the app runs in a process of its own, pointed at it."""

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, time
import django
django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
answers = {}
# A key of a device token's shape, so the database is asked for it.
key = "0" * 40
for path, headers in (("/api/v1/profile", {"HTTP_AUTHORIZATION": f"Token {key}"}), ("/healthz", {}), ("/readyz", {})):
    started = time.monotonic()
    response = client.get(path, **headers)
    answers[path] = [response.status_code, round(time.monotonic() - started, 2), response.get("Retry-After")]
print(json.dumps(answers))
"""


class BlackHole:
    """Accepts every connection and holds it, reading what arrives and answering nothing."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(conn)
            threading.Thread(target=self._swallow, args=(conn,), daemon=True).start()

    @staticmethod
    def _swallow(conn):
        try:
            while conn.recv(65536):
                pass
        except OSError:
            pass

    def close(self):
        self.listener.close()
        for conn in self.held:
            conn.close()


def test_a_black_holed_database_is_a_503_within_seconds_and_healthz_still_answers():
    hole = BlackHole()
    try:
        result = subprocess.run(
            [sys.executable, "-c", PROBE],
            cwd=ROOT,
            env={
                **os.environ,
                "PYTHONPATH": str(ROOT),
                "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
                "DATABASE_URL": f"postgres://postgres@127.0.0.1:{hole.port}/zeus_nowhere",
            },
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        hole.close()
    assert result.returncode == 0, result.stderr[-2000:]
    answers = json.loads(result.stdout.strip().splitlines()[-1])
    status, seconds, retry_after = answers["/api/v1/profile"]
    assert status == 503 and retry_after, answers
    # libpq's connect_timeout (2 s) or the pool's wait (1.5 s), plus the process's own work: never the minutes
    # a connection without a bound waits for.
    assert seconds < 6, answers
    assert answers["/healthz"][0] == 200, answers
    assert answers["/readyz"][0] == 503 and answers["/readyz"][1] < 6, answers


@pytest.mark.django_db
def test_every_connection_carries_its_statement_timeout_and_tcp_bounds():
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "30s"
    params = connection.connection.info.get_parameters()
    assert params["keepalives"] == "1" and int(params["tcp_user_timeout"]) == 3000

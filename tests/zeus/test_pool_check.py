"""The pool's check (zeus/postgresql/base.py): a quiet idle connection is handed out with no round trip; one
the server let go is refused, so the pool discards it."""

import select

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from zeus.postgresql.base import check_connection

pytestmark = pytest.mark.django_db


@pytest.fixture
def raw():
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    conn = psycopg.connect(**params, autocommit=True)
    yield conn
    conn.close()


def test_a_quiet_connection_costs_no_round_trip(raw, monkeypatch):
    asked = []
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(lambda conn: asked.append(conn)))
    raw.execute("SELECT 1").fetchall()
    check_connection(raw)
    assert asked == []


def test_a_connection_the_server_terminated_is_refused(raw):
    pid = raw.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    select.select([raw.fileno()], [], [], 10)  # until the server's goodbye reaches the socket
    with pytest.raises(psycopg.OperationalError):
        check_connection(raw)


def test_the_backend_is_the_one_settings_name():
    assert connection.settings_dict["ENGINE"] == "zeus.postgresql"
    assert connection.vendor == "postgresql"

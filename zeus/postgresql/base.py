"""Django's PostgreSQL backend, with a connection pool whose check costs no round trip while the socket is quiet
(settings: DATABASES; docs/security.md, "Degraded mode").

Django gives the pool psycopg_pool's own check when CONN_HEALTH_CHECKS is on: an empty query before every
connection it hands out, a round trip per request as long as the request's own token check. A connection
the server has let go (a restart, a terminated backend, a cut link) has something to read on its socket:
the server's goodbye, or the end of the stream. So the socket is polled first, without waiting; only a
socket with something to read, or a connection not idle, pays the round trip, and fails it when it is
dead, so the pool discards it and hands out another. Everything else is Django's backend as it is.
"""

import select

from django.db.backends.postgresql import base

from zeus.adapters import postgres_pool
from zeus.postgresql import pools


def check_connection(conn) -> None:
    from psycopg import pq
    from psycopg_pool import ConnectionPool

    if conn.closed or not hasattr(select, "poll"):
        ConnectionPool.check_connection(conn)
        return
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN | select.POLLPRI)  # errors and hang-ups are always reported
    if poller.poll(0) or conn.info.transaction_status != pq.TransactionStatus.IDLE:
        ConnectionPool.check_connection(conn)


# psycopg prepares a statement its caller asks to (`execute(..., prepare=True)`, zeus.adapters.prepared_cursor)
# only on a connection with a prepare threshold; Django sets none, so no statement was ever prepared. This one
# is never reached by counting (Django's own cursors bind on the client and never prepare), so only the
# statements asked for are prepared: the fixed-text hot reads (zeus/prepared.py, the SePay delivery's two).
PREPARE_ONLY_WHEN_ASKED = 2**31 - 1

# A statement prepared on the server is by default planned anew for its values on each of its first five runs,
# and afterwards too whenever PostgreSQL judges the plan for any values costlier: the plan's month read (an
# aggregate over the user's month of transactions) never stopped being replanned, and planning it took as long
# as running it. Every statement Zeus prepares is a read or write by key (a user, a plan, a token, a SePay
# account) whose plan does not depend on which key, so the plan made once is kept. Statements bound on the
# client (every ORM query) carry their values in their text and are planned as before.
PLAN_ONCE = "-c plan_cache_mode=force_generic_plan"


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        params = super().get_connection_params()
        if params.get("prepare_threshold") is None and "prepare_threshold" not in self.settings_dict["OPTIONS"]:
            params["prepare_threshold"] = PREPARE_ONLY_WHEN_ASKED
        options = params.get("options", "")
        if "plan_cache_mode" not in options:
            params["options"] = f"{options} {PLAN_ONCE}".strip()
        return params

    @property
    def pool(self):
        return postgres_pool(self, check_connection)

    def close_pool(self):
        if not pools.kept:
            super().close_pool()

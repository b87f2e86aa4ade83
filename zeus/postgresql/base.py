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


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        # Django's own property (5.2), with `check_connection` above as the pool's check.
        pool_options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == base.NO_DB_ALIAS or not pool_options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise base.ImproperlyConfigured("Pooling doesn't support persistent connections.")
            from psycopg_pool import ConnectionPool

            if pool_options is True:
                pool_options = {}
            connect_kwargs = self.get_connection_params()
            connect_kwargs["autocommit"] = True  # Django sets it properly later on
            pool = ConnectionPool(
                kwargs=connect_kwargs,
                open=False,
                configure=self._configure_connection,
                check=check_connection if self.settings_dict["CONN_HEALTH_CHECKS"] else None,
                **pool_options,
            )
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]

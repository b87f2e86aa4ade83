"""Which failures mean "a part Zeus depends on is down" rather than "Zeus has a bug".

PostgreSQL unreachable (a refused connection, a pool that timed out, a backend terminated under us) is a
`django.db` OperationalError or InterfaceError; Redis (cache, channel layer) and the Celery broker raise
their own connection errors. Each is answered as 503 with `Retry-After` (REST, pages), a websocket close
with code 4503 (chat) or a JSON-RPC error (MCP), never as a 500 (docs/security.md, "Degraded mode").
"""

import functools

import django.db
import psycopg.errors
from django.utils.translation import gettext, gettext_noop


@functools.cache
def dependency_errors() -> tuple[type[BaseException], ...]:
    """The exception classes of a dependency's connection failure."""
    # Imported with the first error to classify, not at start: the redis client and kombu (Celery's messaging)
    # bring their whole packages, which `manage.py` and a fresh web worker do not need (tests/test_startup.py).
    import kombu.exceptions
    import redis.exceptions

    return (
        django.db.OperationalError,
        django.db.InterfaceError,
        redis.exceptions.ConnectionError,
        redis.exceptions.TimeoutError,
        kombu.exceptions.OperationalError,
        ConnectionError,
    )


# Seconds a client is asked to wait: a restart of PostgreSQL or Redis, or a fail-over, takes about this.
RETRY_AFTER_SECONDS = 5


def is_dependency_down(exc: BaseException | None) -> bool:
    """True for a dependency's connection failure, including one wrapped by another exception."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, dependency_errors()):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


# Overload, not an outage: PostgreSQL refuses more clients, or the pool's wait ran out while every one of its
# connections was alive and in use (the same wait runs out when PostgreSQL is down and no connection can be
# made: that stays an outage). Told apart so a client hears "busy, retry in a moment", not "a service is down".
BUSY_ERRORS: tuple[type[BaseException], ...] = (psycopg.errors.TooManyConnections,)
BUSY_RETRY_AFTER_SECONDS = 1
BUSY_MESSAGE = gettext_noop("Zeus is busy right now; try again in a moment.")
DOWN_MESSAGE = gettext_noop("A service Zeus depends on is unavailable; try again shortly.")


def is_busy(exc: BaseException | None) -> bool:
    """True when a dependency error is overload (see BUSY_ERRORS), including one wrapped by another exception."""
    # The pool's package is imported by Django with the first pooled connection, not at start.
    import psycopg_pool

    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, BUSY_ERRORS):
            return True
        if isinstance(exc, psycopg_pool.PoolTimeout):
            return pool_saturated()
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def pool_saturated() -> bool:
    """True when this process's pool holds its most connections and none is free: overload, not an outage."""
    try:
        pool = django.db.connections["default"].pool
        if pool is None:
            return False
        stats = pool.get_stats()
        return stats.get("pool_size", 0) >= pool.max_size and stats.get("pool_available", 0) == 0
    except Exception:  # no pool configured, or one that cannot say: not provably busy
        return False


def unavailable_answer(exc: BaseException | None) -> tuple[str, str, int]:
    """(code, message, Retry-After seconds) for a dependency error: SERVER_BUSY or SERVICE_UNAVAILABLE."""
    if is_busy(exc):
        return "SERVER_BUSY", gettext(BUSY_MESSAGE), BUSY_RETRY_AFTER_SECONDS
    return "SERVICE_UNAVAILABLE", gettext(DOWN_MESSAGE), RETRY_AFTER_SECONDS

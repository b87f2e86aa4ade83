"""Which failures mean "a part Zeus depends on is down" rather than "Zeus has a bug".

PostgreSQL unreachable (a refused connection, a pool that timed out, a backend terminated under us) is a
`django.db` OperationalError or InterfaceError; Redis (cache, channel layer) and the Celery broker raise
their own connection errors. Each is answered as 503 with `Retry-After` (REST, pages), a websocket close
with code 4503 (chat) or a JSON-RPC error (MCP), never as a 500 (docs/security.md, "Degraded mode").
"""

import django.db
import kombu.exceptions
import redis.exceptions

DEPENDENCY_ERRORS: tuple[type[BaseException], ...] = (
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
        if isinstance(exc, DEPENDENCY_ERRORS):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False

"""Whether this process's connection pools outlive a close_pool() call (zeus.postgresql.base).

Celery's Django fixup closes a prefork pool process's whole connection pool around every task, after handing
the connection back to it; zeus.celery calls keep_open() when such a process starts its first task, and from
then on the pool lives as long as the process, as a web process's does. Elsewhere nothing calls it and
close_pool() is Django's."""

kept = False


def keep_open(**kwargs) -> None:
    """A Celery task_prerun receiver (hence the keyword arguments)."""
    global kept
    kept = True


def release() -> None:
    """close_pool() is Django's again: the process is stopping (zeus.celery)."""
    global kept
    kept = False

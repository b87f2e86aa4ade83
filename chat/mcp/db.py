"""ORM work from the MCP server's async handlers."""

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection


async def in_worker(fn, *args):
    """Runs `fn(*args)` off the event loop, tidying the connection before and after like
    database_sync_to_async. SQLite (the embedded default) takes one writer at a time, so there every call
    shares one thread."""

    def run():
        close_old_connections()
        try:
            return fn(*args)
        finally:
            close_old_connections()

    return await sync_to_async(run, thread_sensitive=connection.vendor == "sqlite")()

"""The test database's address for what a test starts beside it (a worker, a server, a second session, a
forwarder): a URL for Django's settings in a child process, a conninfo for psycopg, the socket to forward to.
The embedded server (zeus/embedded_db.py) listens on a Unix socket in a directory; DATABASE_URL's on TCP, as a rule.
"""

from urllib.parse import quote, urlencode

from django.db import connection
from psycopg.conninfo import make_conninfo


def _on_socket(db) -> bool:
    return db["HOST"].startswith("/")


def database_url(**query) -> str:
    """The test database as a DATABASE_URL; `query` (application_name=...) goes to the connection's options."""
    db = connection.settings_dict
    # django-environ reads a socket directory from an absolute path before the database name.
    where = f"/{quote(db['HOST'])}" if _on_socket(db) else f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    url = f"postgres://{db['USER'] or 'postgres'}@{where}/{db['NAME']}"
    return f"{url}?{urlencode(query)}" if query else url


def conninfo(**extra) -> str:
    """The test database as libpq's key-value string, for psycopg.connect()."""
    db = connection.settings_dict
    parts = {"dbname": db["NAME"], "host": db["HOST"] or "127.0.0.1", "port": db["PORT"] or 5432}
    parts["user"] = db["USER"] or "postgres"
    if db["PASSWORD"]:
        parts["password"] = db["PASSWORD"]
    return make_conninfo(**parts, **extra)


def address() -> tuple[str, int] | str:
    """Where the server listens: a TCP (host, port), or the path of its Unix socket."""
    db = connection.settings_dict
    port = db["PORT"] or 5432
    return f"{db['HOST']}/.s.PGSQL.{port}" if _on_socket(db) else (db["HOST"] or "127.0.0.1", int(port))

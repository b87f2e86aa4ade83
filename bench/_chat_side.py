"""One side of `bench/chat_vs_old.py`: a tree's own chat bench set-up, served until told to stop. Bench only.

Run by the tree's own interpreter with the tree as the working directory (`<tree>/.venv/bin/python
<this file> DATABASE_URL`), it uses what both trees hold: `bench/chat_turn.py`'s `Responder` and `Daphne`, the
tree's own offline model server, and a user made as that bench makes its users (the tree's own factories and
services, signed in through Django's test client). So each tree is measured as its own chat bench starts it:
its migrations in a database of its own, its model server, its daphne command. It prints one line of JSON (port,
cookie, thread, daphne's pid), serves until its standard input closes, then stops daphne and drops its database.
"""

import json
import os
import sys

# The tree is the working directory; this file may live in another tree.
sys.path[0] = os.getcwd()


def main(database_url: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "zeus.settings.test"
    os.environ["DATABASE_URL"] = database_url
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    from bench.chat_turn import Daphne, Responder
    from tests.chat.fake_anthropic import FakeAnthropic

    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        cookie, thread_id = _user()
        db = connection.settings_dict
        served_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        with FakeAnthropic() as fake:
            fake.responder = Responder()
            fake.emulate_cache = False
            env = {
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "zeus.settings.test",
                "DATABASE_URL": served_url,
                "REDIS_URL": settings.REDIS_URL,
                "ANTHROPIC_BASE_URL": fake.url,
                "ANTHROPIC_API_KEY": "sk-ant-bench-0123456789abcdef",
                "ZEUS_DAILY_TOKEN_BUDGET": "0",
                "LOG_LEVEL": "WARNING",
            }
            server = Daphne(env, 1)
            try:
                server.wait_ready()
                line = {"port": server.port, "cookie": cookie, "thread": thread_id, "pid": server.pids[0]}
                print(json.dumps(line), flush=True)
                sys.stdin.read()
            finally:
                server.stop()
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _user() -> tuple[str, str]:
    """A user with one transaction, a thread and a signed-in session: (cookie, thread id)."""
    from django.conf import settings
    from django.test import Client

    from assets.services import transaction_create
    from chat.services import thread_create
    from tests import factories

    user = factories.user("bench-pair")
    transaction_create(user=user, amount="85k", description="Phở")
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={session}", str(thread_create(user=user).id)


if __name__ == "__main__":
    main(sys.argv[1])

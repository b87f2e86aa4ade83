"""Migration zeus.0011_device_tokens: the keys DRF's authtoken app gave out keep working as device tokens."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
KEY = "0123456789abcdef0123456789abcdef01234567"


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def test_an_old_token_key_still_signs_in_after_the_migration():
    alice = factories.user("alice")
    graph = MigrationExecutor(connection).loader.graph
    # Every app's newest, not zeus's alone: going back unapplies other apps' migrations that depend on zeus's.
    latest = graph.leaf_nodes()
    [ours] = [node for node in graph.nodes if node[0] == "zeus" and node[1].endswith("_device_tokens")]
    # Just before it, whatever number it carries once merged with other branches' migrations.
    _migrate([parent.key for parent in graph.node_map[ours].parents if parent.key[0] == "zeus"])
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamptz NOT NULL, "
            "user_id integer NOT NULL)"
        )
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, now() - interval '30 days', %s)", [KEY, alice.id])
    try:
        _migrate(latest)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE authtoken_token")
    from zeus.models import DeviceToken

    token = DeviceToken.objects.get(user=alice)
    assert token.name == "API" and token.prefix == KEY[:8] and KEY not in token.key_hash
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {KEY}")
    assert client.get("/api/v1/profile").json()["username"] == "alice"

"""Connections to the real services: the Redis cache keeps its clients, PostgreSQL gets a pool."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.redis
def test_the_redis_cache_keeps_one_client_per_pool_and_still_works():
    from django.core.cache import caches

    from zeus.cache import RedisCache

    assert isinstance(caches["default"], RedisCache)
    client = cache._cache.get_client("a", write=True)
    assert cache._cache.get_client("b", write=True) is client
    cache.set("infra:key", {"n": 1}, 30)
    assert cache.add("infra:key", 2, 30) is False
    assert cache.get("infra:key") == {"n": 1}
    cache.set("infra:count", 1, 30)
    assert cache.incr("infra:count") == 2
    cache.delete_many(["infra:key", "infra:count"])
    assert cache.get("infra:key") is None


def _database_settings(**env) -> dict:
    code = "from django.conf import settings; import json; print(json.dumps(settings.DATABASES['default']))"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": "zeus.settings.base", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_postgresql_gets_a_connection_pool_unless_persistent_connections_are_asked_for():
    url = "postgres://zeus@127.0.0.1:5432/zeus"
    pooled = _database_settings(DATABASE_URL=url, DATABASE_POOL_MAX_SIZE="8")
    assert pooled["CONN_MAX_AGE"] == 0
    assert pooled["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 8, "timeout": 10}
    persistent = _database_settings(DATABASE_URL=url, DATABASE_CONN_MAX_AGE="60")
    assert persistent["CONN_MAX_AGE"] == 60
    assert "pool" not in persistent.get("OPTIONS", {})
    assert "pool" not in _database_settings().get("OPTIONS", {})  # the embedded SQLite

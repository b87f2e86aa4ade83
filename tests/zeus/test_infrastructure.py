"""Connections to the real services: the Redis cache keeps its clients, PostgreSQL gets a pool, a batch of
notifications is one insert and one push after commit."""

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

    from zeus.adapters import write_client
    from zeus.cache import RedisCache

    assert isinstance(caches["default"], RedisCache)
    client = write_client(caches["default"])
    assert write_client(caches["default"]) is client
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
    assert pooled["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 8, "timeout": 1.5}
    assert pooled["OPTIONS"]["connect_timeout"] == 2
    assert pooled["CONN_HEALTH_CHECKS"] is True
    persistent = _database_settings(DATABASE_URL=url, DATABASE_CONN_MAX_AGE="60")
    assert persistent["CONN_MAX_AGE"] == 60
    assert "pool" not in persistent.get("OPTIONS", {})


@pytest.mark.django_db
def test_a_batch_of_notifications_is_one_insert_and_is_pushed_to_open_sockets_after_commit(alice, bob):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.db import connection
    from django.test import TestCase
    from django.test.utils import CaptureQueriesContext

    from zeus.live import user_group
    from zeus.models import Notification
    from zeus.services import NotificationDraft, notification_create_many

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(alice.id), channel)
    rows = [
        NotificationDraft(user_id=user.id, kind=Notification.Kind.INSIGHT, title=f"For {user}") for user in (alice, bob)
    ]
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks, CaptureQueriesContext(connection) as queries:
        created = notification_create_many(rows)
    assert len(callbacks) == 1  # the push waits for the commit
    assert len([q for q in queries.captured_queries if q["sql"].startswith("INSERT")]) == 1
    assert [n.pk is not None for n in created] == [True, True]
    with CaptureQueriesContext(connection) as later:
        assert [(n.read_at, n.facts, n.created_at is not None) for n in created] == [(None, {}, True)] * 2
    assert later.captured_queries == []  # every field loaded: none deferred to a query of its own
    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == "notification.push"
    assert message["notification"]["title"] == "For alice"
    assert Notification.objects.filter(user=bob, title="For bob").exists()
    async_to_sync(layer.group_discard)(user_group(alice.id), channel)


@pytest.mark.django_db
def test_a_batch_is_pushed_in_each_online_readers_language_and_reads_nothing_for_nobody_online(alice, bob):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.db import connection
    from django.test import TestCase
    from django.test.utils import CaptureQueriesContext

    from zeus.live import user_group
    from zeus.models import Notification, Profile
    from zeus.services import NotificationDraft, notification_create_many

    Profile.objects.filter(user=alice).update(language="en")
    Profile.objects.filter(user=bob).update(language="vi")

    def reminders(key):
        return [
            NotificationDraft(
                user_id=user.id,
                kind=Notification.Kind.PLAN_REMINDER,
                title="stored",
                dedupe_key=f"{key}:{user.id}",
                facts={"words": "plan_reminder"},
            )
            for user in (alice, bob)
        ]

    with TestCase.captureOnCommitCallbacks() as callbacks:
        notification_create_many(reminders("nobody-online"))
    with CaptureQueriesContext(connection) as queries:
        for callback in callbacks:
            callback()
    assert queries.captured_queries == []  # no profile read when nobody is listening

    layer = get_channel_layer()
    channels = {user.id: async_to_sync(layer.new_channel)() for user in (alice, bob)}
    for user_id, channel in channels.items():
        async_to_sync(layer.group_add)(user_group(user_id), channel)
    with TestCase.captureOnCommitCallbacks(execute=True):
        notification_create_many(reminders("online"))
    titles = {uid: async_to_sync(layer.receive)(ch)["notification"]["title"] for uid, ch in channels.items()}
    assert titles == {alice.id: "Your plan: today's check-in", bob.id: "Kế hoạch của bạn: điểm danh hôm nay"}
    for user_id, channel in channels.items():
        async_to_sync(layer.group_discard)(user_group(user_id), channel)


@pytest.mark.django_db
def test_a_batch_s_texts_reach_the_inbox_as_written(alice):
    from zeus.models import Notification
    from zeus.services import NotificationDraft, notification_create_many

    title = 'Tuần 2026-W48: đã chi 1,177,000 ₫ 🎉 "quoted" \\ back, {braces}'
    body = "Dòng một\nDòng hai\tcột; 100% '"
    (created,) = notification_create_many(
        [NotificationDraft(user_id=alice.id, kind=Notification.Kind.INSIGHT, title=title, body=body, cta_url="/x")]
    )
    stored = Notification.objects.get(pk=created.pk)
    assert (stored.title, stored.body, stored.cta_url, stored.dedupe_key) == (title, body, "/x", None)
    assert (created.title, created.body) == (title, body)


@pytest.mark.django_db
def test_a_batch_skips_what_the_inbox_already_holds_by_its_dedupe_key(alice, bob):
    from zeus.models import Notification
    from zeus.services import NotificationDraft, notification_create_many

    def draft(user, key):
        return NotificationDraft(user_id=user.id, kind=Notification.Kind.INSIGHT, title="Twice?", dedupe_key=key)

    first = notification_create_many([draft(alice, "k1"), draft(bob, "k1")])
    again = notification_create_many([draft(alice, "k1"), draft(alice, "k2"), draft(bob, None), draft(bob, None)])
    assert [n.user_id for n in first] == [alice.id, bob.id]
    assert [(n.user_id, n.dedupe_key) for n in again] == [(alice.id, "k2"), (bob.id, None), (bob.id, None)]
    assert Notification.objects.filter(dedupe_key="k1").count() == 2
    assert Notification.objects.filter(user=bob, dedupe_key=None).count() == 2

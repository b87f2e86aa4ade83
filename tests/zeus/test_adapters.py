"""zeus.adapters uses private names of Django's Redis cache and of channels-redis. These tests pin the versions
it was written against and check each private name still does what the adapter relies on, against the real
Redis, so an upgrade fails here rather than in a turn."""

from importlib.metadata import version

import pytest
from asgiref.sync import async_to_sync

from zeus import adapters


def test_the_installed_libraries_are_the_versions_the_adapter_was_written_against():
    installed = {name: version(name) for name in adapters.WRITTEN_AGAINST}

    assert installed == adapters.WRITTEN_AGAINST, "re-read zeus/adapters.py against the new versions, then update"


def test_the_private_names_the_adapter_uses_exist():
    from channels_redis.core import RedisChannelLayer
    from django.core.cache.backends.redis import RedisCache, RedisCacheClient

    for name in ("_get_connection_pool_index", "_get_connection_pool", "_client", "_serializer"):
        assert hasattr(RedisCacheClient, name) or name in RedisCacheClient.__init__.__code__.co_names, name
    assert "_class" in RedisCache.__init__.__code__.co_names
    assert callable(RedisChannelLayer._group_key)


@pytest.mark.redis
def test_the_kept_client_is_reused_and_values_are_stored_as_the_cache_serializes_them():
    from django.core.cache import caches

    cache = caches["default"]
    assert isinstance(cache, adapters.KeptClientsRedisCache)
    client = adapters.write_client(cache)
    assert adapters.write_client(cache) is client
    cache.set("adapters:key", {"n": 1}, 30)
    key = cache.make_and_validate_key("adapters:key")
    assert client.get(key) == adapters.serialized(cache, {"n": 1})
    cache.delete("adapters:key")


@pytest.mark.redis
def test_the_group_key_is_the_sorted_set_a_group_add_writes():
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("adapters.group", channel)
    try:
        key = adapters.redis_group_key(layer, "adapters.group")

        async def members():
            return await layer.connection(layer.consistent_hash("adapters.group")).zcard(key)

        assert async_to_sync(members)() == 1
    finally:
        async_to_sync(layer.group_discard)("adapters.group", channel)


def test_another_layer_has_no_group_key():
    from channels.layers import InMemoryChannelLayer

    assert adapters.redis_group_key(InMemoryChannelLayer(), "adapters.group") is None


def test_the_sdks_deprecated_models_table_maps_model_names_to_dates():
    table = adapters.sdk_deprecated_models()
    assert table and all(isinstance(k, str) and isinstance(v, str) for k, v in table.items())
    assert "claude-sonnet-4-5" in table

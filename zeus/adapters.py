"""The one place Zeus reaches into third-party internals: Django's Redis cache client, channels-redis's
group keys and hosts, and the anthropic SDK's table of deprecated models. Each use is a private name of the
library at the versions in WRITTEN_AGAINST; tests/zeus/test_adapters.py fails when an installed version differs, so an
upgrade comes back here first.
"""

import functools

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

WRITTEN_AGAINST = {"django": "5.2.19", "channels-redis": "4.3.0", "anthropic": "2.14.0"}


class KeptClients(RedisCacheClient):
    """Django's client builds a new `redis.Redis` (and its table of some two hundred response callbacks) for
    every cache call; a chat turn makes five of them. A Redis client over a shared pool is thread safe, so one
    per pool is kept. Private: `_get_connection_pool_index`, `_get_connection_pool`, `_client`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class KeptClientsRedisCache(DjangoRedisCache):
    """Django's Redis cache with KeptClients. Private: `_class` (which client class it builds)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClients


def write_client(cache: DjangoRedisCache):
    """The redis-py client a Django Redis cache writes `key`s through. Private: `_cache`."""
    return cache._cache.get_client(None, write=True)


def serialized(cache: DjangoRedisCache, value) -> bytes:
    """`value` as the cache stores it. Private: `_cache._serializer`."""
    return cache._cache._serializer.dumps(value)


def redis_group_key(layer, group: str) -> str | None:
    """The Redis key (a sorted set of its channels) behind a channels-redis group, or None for another layer.
    Private: `RedisChannelLayer._group_key`."""
    group_key = getattr(layer, "_group_key", None)
    if group_key is None or not (hasattr(layer, "consistent_hash") and hasattr(layer, "connection")):
        return None
    return group_key(group)


def redis_layer_sync_client(layer, index: int):
    """A blocking redis-py client on the channels-redis host `index` (its `hosts` entry, as the layer gives
    it to its own asyncio pools), or None for another layer or a host given otherwise than by address (a
    sentinel). Private: `RedisChannelLayer.hosts`'s shape (channels_redis.utils.decode_hosts)."""
    import redis

    hosts = getattr(layer, "hosts", None)
    if redis_group_key(layer, "x") is None or not hosts:
        return None
    host = dict(hosts[index])
    address = host.pop("address", None)
    if address is None:
        return None
    return redis.Redis.from_url(address, **host)


@functools.cache
def sdk_deprecated_models() -> dict[str, str]:
    """The anthropic SDK's own list of deprecated models → their end-of-life date as it writes it
    ("November 30th, 2026"); the SDK warns on every call to one. Read from its one file: importing
    `anthropic._data` would import the whole SDK, and the system checks of every process read this.
    Private: `anthropic/_data/deprecated_models.py`."""
    import importlib.util
    import pathlib

    package = importlib.util.find_spec("anthropic")
    path = pathlib.Path(package.origin).parent / "_data" / "deprecated_models.py"
    spec = importlib.util.spec_from_file_location("zeus_sdk_deprecated_models", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.DEPRECATED_MODELS)

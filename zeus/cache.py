"""Django's Redis cache backend, keeping its redis clients, plus an atomic compare-and-delete.

The stock client builds a new `redis.Redis` (and its table of some two hundred response callbacks) for
every cache call; a chat turn makes five of them. A Redis client over a shared pool is thread safe, so
one per pool is kept.
"""

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _KeptClients(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


# Deletes KEYS[1] only while it still holds ARGV[1], in one step on the server.
_DELETE_IF_EQUAL = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _KeptClients

    def delete_if_equal(self, key, value, version=None) -> bool:
        """Deletes `key` only if it holds `value` (a lock's owner token): a lock that expired and was taken
        by someone else is never freed by its late first owner."""
        key = self.make_and_validate_key(key, version=version)
        client = self._cache.get_client(key, write=True)
        return bool(client.eval(_DELETE_IF_EQUAL, 1, key, self._cache._serializer.dumps(value)))


def delete_if_equal(key: str, value) -> None:
    """Deletes `key` from the default cache only while it holds `value`: atomic on Redis; the embedded
    in-process cache serves one process, so get-then-delete is enough there."""
    from django.core.cache import caches

    cache = caches["default"]
    if isinstance(cache, RedisCache):
        cache.delete_if_equal(key, value)
    elif cache.get(key) == value:
        cache.delete(key)

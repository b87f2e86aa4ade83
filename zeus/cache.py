"""Django's Redis cache backend, keeping its redis clients.

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


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _KeptClients

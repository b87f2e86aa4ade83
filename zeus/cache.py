"""Django's Redis cache backend with its clients kept (zeus.adapters), plus an atomic compare-and-delete."""

from zeus.adapters import KeptClientsRedisCache, serialized, write_client

# Deletes KEYS[1] only while it still holds ARGV[1], in one step on the server.
DELETE_IF_EQUAL = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


class RedisCache(KeptClientsRedisCache):
    def delete_if_equal(self, key, value, version=None) -> bool:
        """Deletes `key` only if it holds `value` (a lock's owner token): a lock that expired and was taken
        by someone else is never freed by its late first owner."""
        key = self.make_and_validate_key(key, version=version)
        return bool(write_client(self).eval(DELETE_IF_EQUAL, 1, key, serialized(self, value)))


def delete_if_equal(key: str, value) -> None:
    """Deletes `key` from the default cache only while it holds `value`: atomic on Redis; the embedded
    in-process cache serves one process, so get-then-delete is enough there."""
    from django.core.cache import caches

    cache = caches["default"]
    if isinstance(cache, RedisCache):
        cache.delete_if_equal(key, value)
    elif cache.get(key) == value:
        cache.delete(key)

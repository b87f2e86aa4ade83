"""The one place Zeus reaches into third-party internals: Django's Redis cache client, channels-redis's
group keys and hosts, the anthropic SDK's table of deprecated models, Django's cursor wrapping (prepared
statements), and Django's queryset, prefetch and connection pool internals (zeus/prepared.py,
zeus/postgresql/base.py). Each use is a private name of the library at
the versions in WRITTEN_AGAINST; tests/zeus/test_adapters.py fails when an installed version differs, so an
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


def prepared_cursor(connection):
    """A cursor on Django's PostgreSQL connection whose statements are bound and prepared on the server
    (psycopg's `prepare=True`): PostgreSQL parses and plans a statement once per connection instead of on
    every call. Django's cursors bind on the client and never prepare (its default suits the ORM's ever
    different SQL and connection poolers); a hot raw statement of fixed text, run on every request (a SePay
    delivery's two), spends more on planning than on running. Wrapped as Django wraps its own (query
    logging, execute wrappers, errors turned into django.db errors). Parameters are typed on the server:
    cast a parameter that may be None where PostgreSQL cannot infer its type. Private:
    `BaseDatabaseWrapper._prepare_cursor`, the backend's `ServerBindingCursor`."""
    connection.ensure_connection()
    with connection.wrap_database_errors:
        return connection._prepare_cursor(_prepared_cursor_class()(connection.connection))


@functools.cache
def _prepared_cursor_class():
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparedCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)

    return PreparedCursor


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


def queryset_shape(queryset) -> tuple[str | None, bool]:
    """What rows a queryset yields ("model", "values", or None for any other kind) and whether it has
    prefetch_related lookups: what zeus.prepared can keep. Private: `_iterable_class`,
    `_prefetch_related_lookups`."""
    from django.db.models.query import ModelIterable, ValuesIterable

    kinds = {ModelIterable: "model", ValuesIterable: "values"}
    return kinds.get(queryset._iterable_class), bool(queryset._prefetch_related_lookups)


def set_prefetched(instance, related_name: str, objects: list) -> None:
    """Leaves `instance.<related_name>` (a reverse foreign key) as prefetch_related would: its manager's
    `.all()` answers from `objects` with no query. Private: `_result_cache`, `_prefetch_done`,
    `_prefetched_objects_cache`."""
    manager = getattr(instance, related_name)
    field = manager.field
    for obj in objects:
        field.set_cached_value(obj, instance)
    cached = manager.get_queryset()
    cached._result_cache = list(objects)
    cached._prefetch_done = True
    if not hasattr(instance, "_prefetched_objects_cache"):
        instance._prefetched_objects_cache = {}
    instance._prefetched_objects_cache[field.remote_field.cache_name] = cached


def postgres_pool(wrapper, check):
    """Django's PostgreSQL DatabaseWrapper.pool (5.2) with `check` as the pool's check instead of
    psycopg_pool's. Private: `_connection_pools`, `_configure_connection`."""
    from django.core.exceptions import ImproperlyConfigured
    from django.db.backends.base.base import NO_DB_ALIAS

    pool_options = wrapper.settings_dict["OPTIONS"].get("pool")
    if wrapper.alias == NO_DB_ALIAS or not pool_options:
        return None
    if wrapper.alias not in wrapper._connection_pools:
        if wrapper.settings_dict.get("CONN_MAX_AGE", 0) != 0:
            raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
        from psycopg_pool import ConnectionPool

        if pool_options is True:
            pool_options = {}
        connect_kwargs = wrapper.get_connection_params()
        connect_kwargs["autocommit"] = True  # Django sets it properly later on
        pool = ConnectionPool(
            kwargs=connect_kwargs,
            open=False,
            configure=wrapper._configure_connection,
            check=check if wrapper.settings_dict["CONN_HEALTH_CHECKS"] else None,
            **pool_options,
        )
        wrapper._connection_pools.setdefault(wrapper.alias, pool)
    return wrapper._connection_pools[wrapper.alias]


class _BatchResult:
    """One result set of a batch, standing in for the cursor a RawQuery opens for itself."""

    def __init__(self, description, rows):
        self.description = description
        self.rows = rows

    def __iter__(self):
        return iter(self.rows)

    def close(self):
        pass


def raw_from_rows(queryset, description, rows) -> list:
    """The instances a `Model.objects.raw(...)` queryset yields, from rows already fetched (zeus/batch.py):
    Django's own raw iterable does the work (columns to fields, converters, deferred columns), reading the
    given rows instead of the database. Private: `RawQuery.cursor` and `_execute_query`."""
    query = queryset.query
    query.cursor = _BatchResult(description, rows)
    query._execute_query = lambda: None
    return list(queryset)

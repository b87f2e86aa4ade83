"""Several small reads in one round trip (docs/pages.md, "One round trip for the small reads").

A page that makes a handful of indexed reads of a few rows each spends more on the way to PostgreSQL and
back, and in Django's execute path, than PostgreSQL spends answering them. `run_batch` sends them together:
with psycopg's client-side binding (Django's default on PostgreSQL) one `execute` may hold several
statements, and `nextset()` walks their results. Any other backend or cursor runs them one by one, with the
same results.
"""

import functools

from django.db import connections

from zeus.adapters import raw_from_rows


class Rows:
    """A plain read for `run_batch`: its statement and parameters; its result is the rows as tuples."""

    db = "default"

    def __init__(self, sql: str, params: list):
        self.sql, self.params = sql, list(params)

    def run(self) -> list[tuple]:
        with connections[self.db].cursor() as cursor:
            cursor.execute(self.sql, self.params)
            return cursor.fetchall()


class Computed:
    """A read for `run_batch` where the database has no arrays (SQLite, `make run`'s default): `compute()`
    returns its rows, made with the ORM, as the PostgreSQL statement's would be. run_batch runs it alone."""

    db = "default"

    def __init__(self, compute):
        self.compute = compute

    def run(self) -> list:
        return list(self.compute())


def arrays_supported(db: str = "default") -> bool:
    """Whether the batch reads' plain statements (`= ANY(%s)` over a list, `::` casts) run on `db`: on
    PostgreSQL; elsewhere each read is made with the ORM (a queryset, or `Computed`)."""
    return connections[db].vendor == "postgresql"


def _one_by_one(reads: list) -> list[list]:
    return [read.run() if isinstance(read, Rows | Computed) else list(read) for read in reads]


class _Ids(list):
    """A list of ints among a batch's parameters (a batch's user ids, often in several of its statements)."""


@functools.cache
def _ids_dumper():
    from psycopg import adapt, postgres

    class IdsDumper(adapt.Dumper):
        """The list as an int8[] literal in one join: psycopg's list dumper checks each element's text against a
        regular expression for quoting, some 0.35 ms for 500 ids, and a weekly review batch sends its ids five
        times."""

        oid = postgres.types["int8"].array_oid

        def dump(self, obj):
            return b"{" + ",".join(map(str, obj)).encode() + b"}"

    return IdsDumper


def _param(value):
    if type(value) is list and value and all(type(v) is int for v in value):
        return _Ids(value)
    return value


def run_batch(reads: list) -> list[list]:
    """The results of `reads`, in order: for a `Model.objects.raw(...)` queryset its instances, for `Rows`
    its tuples. One statement list, one round trip, one entry in the query log."""
    if not reads:
        return []
    using = reads[0].db
    connection = connections[using]
    if not arrays_supported(using) or any(r.db != using or isinstance(r, Computed) for r in reads):
        return _one_by_one(reads)
    import psycopg

    adapt = connection.ops.adapt_unknown_value
    statements = [(r.sql, r.params) if isinstance(r, Rows) else (r.query.sql, r.query.params) for r in reads]
    sql = ";\n".join(text.strip().rstrip(";") for text, _params in statements)
    params = [_param(adapt(v)) for _text, values in statements for v in values]
    with connection.cursor() as cursor:
        if not isinstance(cursor.cursor, psycopg.ClientCursor):  # server-side binding: one statement each
            return _one_by_one(reads)
        cursor.cursor.adapters.register_dumper(_Ids, _ids_dumper())
        cursor.execute(sql, params)
        results = []
        for index in range(len(reads)):
            if index:
                cursor.nextset()
            results.append((cursor.description, cursor.fetchall()))
    return [
        rows if isinstance(read, Rows) else raw_from_rows(read, description, rows)
        for read, (description, rows) in zip(reads, results, strict=True)
    ]

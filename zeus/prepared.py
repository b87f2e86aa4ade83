"""Querysets compiled once and run many times with new values (docs/PERFORMANCE.md, "REST views").

Building and compiling a queryset costs Django more than PostgreSQL takes to answer a small indexed read: the
token check every API request makes spent 0.5 ms of its 0.7 ms in `filter()`, `select_related()` and
`as_sql()`. A `Prepared` builds its queryset once per database, with sentinel values standing in for the
arguments, keeps the SQL and the compiler's row layout, and afterwards only substitutes the arguments, runs
the SQL through the connection's own cursor (so execute wrappers, query logs and assertNumQueries see it as
any query) and builds the rows as Django's iterables would: model instances with their select_related
objects, or dicts for a `.values()` queryset.

Only what a plain queryset's SQL holds is kept: no prefetch_related, no deferred iteration. The sentinels
must reach the SQL as parameters unchanged (ids, keys, dates compared with a field), once or more: each is
looked for among the parameters, and a queryset one of them does not reach is refused. The Django internals
it reads are in zeus/adapters.py.
"""

import datetime as dt
import threading
from collections.abc import Callable

from django.db import connections
from django.db.models import QuerySet, TextField
from django.db.models.expressions import RawSQL
from django.db.models.query import get_related_populators

from zeus.adapters import prepared_cursor, queryset_shape

# Values no real argument takes: each stands for one argument while the queryset is compiled.
_SENTINELS = {
    int: lambda i: -7_340_112_983_000 - i,
    str: lambda i: f"\ue000zeus-prepared-{i}\ue000",
    dt.date: lambda i: dt.date(1111, 1, 1 + i),
}


class Prepared:
    """`Prepared(build, int, str, ...)`: `build(*args)` returns the queryset; the types name its arguments'
    kinds (int, str, datetime.date). `run(*args)` returns the list the queryset would."""

    def __init__(self, build: Callable[..., QuerySet], *kinds: type):
        self.build = build
        self.kinds = kinds
        self.compiled: _Compiled | None = None
        self.lock = threading.Lock()

    def run(self, *args) -> list:
        compiled = self.compiled
        if compiled is None:
            with self.lock:
                compiled = self.compiled = self.compiled or _compile(self.build, self.kinds)
        return compiled.run(args)


class _Compiled:
    def __init__(self, queryset: QuerySet, sentinels: list):
        self.db = queryset.db
        compiler = queryset.query.get_compiler(using=self.db)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.slots = []  # (position in params, argument index, whether the backend passed it as text)
        for index, sentinel in enumerate(sentinels):
            # A backend may pass a date as its ISO text (SQLite); then the argument is passed as text too.
            found = [p for p, v in enumerate(self.params) if type(v) is type(sentinel) and v == sentinel]
            as_text = not found and not isinstance(sentinel, str)
            if as_text:
                found = [p for p, v in enumerate(self.params) if isinstance(v, str) and v == str(sentinel)]
            if not found:
                raise ValueError(f"argument {index} does not reach the SQL as a parameter")
            self.slots += [(position, index, as_text) for position in found]
        kind, prefetches = queryset_shape(queryset)
        if kind is None:
            raise ValueError("only model and .values() querysets can be prepared")
        if prefetches:
            raise ValueError("prefetch_related is not kept by a prepared queryset")
        self.values = kind == "values"
        self.select = compiler.select
        self.converters = compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]])
        self.compiler = compiler
        if self.values:
            query = queryset.query
            self.names = [*query.extra_select, *query.values_select, *query.annotation_select]
        else:
            info = compiler.klass_info
            self.model = info["model"]
            fields = info["select_fields"]
            self.start, self.end = fields[0], fields[-1] + 1
            self.init_list = [f[0].target.attname for f in compiler.select[self.start : self.end]]
            self.populators = get_related_populators(info, compiler.select, self.db)
            self.annotations = dict(compiler.annotation_col_map)

    def run(self, args) -> list:
        params = list(self.params)
        for position, index, as_text in self.slots:
            params[position] = str(args[index]) if as_text else args[index]
        connection = connections[self.db]
        # On PostgreSQL the statement is prepared on the server, once per connection (psycopg keeps which
        # statements each connection holds, so a connection the pool replaced prepares again): the fixed text
        # is parsed and planned once instead of on every request, and planning cost as much as running.
        cursor = prepared_cursor(connection) if connection.vendor == "postgresql" else connection.cursor()
        with cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if self.converters:
            rows = list(self.compiler.apply_converters(rows, self.converters))
        if self.values:
            names = self.names
            return [dict(zip(names, row, strict=True)) for row in rows]
        out = []
        for row in rows:
            obj = self.model.from_db(self.db, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations.items():
                setattr(obj, name, row[position])
            out.append(obj)
        return out


def _compile(build, kinds) -> _Compiled:
    sentinels = [_SENTINELS[kind](i) for i, kind in enumerate(kinds)]
    return _Compiled(build(*sentinels), sentinels)


def correlated_rows(queryset: QuerySet, outer: dict) -> RawSQL:
    """`queryset`'s rows as one column of an outer queryset's row: a JSON array of objects (as text, so that
    `json.loads(parse_float=Decimal)` keeps exact amounts), one per row, keyed by column name; NULL when there
    is no row. Each key of
    `outer` is a value that reaches the queryset's SQL as a parameter (once or more); it is replaced there by
    its SQL expression over the outer row (`"plans_monthlyplan"."month"`). What reaches the SQL otherwise stays a
    parameter, so an outer `Prepared`'s sentinel passed into the queryset is still bound on each run. Several
    child reads then ride on their parent's statement: one round trip instead of one each."""
    sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
    pieces = sql.split("%s")
    if "%%" in sql or len(pieces) != len(params) + 1:
        raise ValueError("the queryset's SQL has placeholders that are not its parameters")
    kept, text, seen = [], [pieces[0]], []
    for value, piece in zip(params, pieces[1:], strict=True):
        found = [key for key in outer if type(key) is type(value) and key == value]
        seen += found
        text.append(outer[found[0]] if found else "%s")
        if not found:
            kept.append(value)
        text.append(piece)
    if {str(key) for key in seen} != {str(key) for key in outer}:
        raise ValueError("an outer value does not reach the SQL")
    return RawSQL(f"(SELECT json_agg(n)::text FROM ({''.join(text)}) AS n)", kept, output_field=TextField())

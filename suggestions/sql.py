"""The suggestions statements that are better written in SQL than through the ORM, each with its reason."""

import datetime as dt
import json
import uuid

from django.db import connection

from suggestions.models import RecurringSeries, WeeklyDigest
from suggestions.recurring.reads import SeriesValues

SeriesKey = tuple[int, str, str, str]  # (user, direction, currency, key): a series' identity

_SERIES_KEY = ("user_id", "direction", "currency", "key")
_SERIES_TYPES = ("bigint", "text", "text", "text", "text", "text", "numeric", "numeric", "text", "date", "date",
                 "text", "integer", "text")  # fmt: skip

# The night's new series of a batch in one statement. Through the ORM this is a bulk_create of a model instance
# per series, each of its sixteen fields prepared one by one and every column bound as an array whose texts
# psycopg quotes one by one in Python: on a first run that costs more than the detection finding the series.
# Here the batch goes in as one JSON document (json.dumps is one C call) and RETURNING gives each series its id
# by its identity (unique per user, direction, currency and key), which the insights it raises name.
_SERIES_INSERT = """
INSERT INTO {table} ({columns}, created_at, updated_at)
SELECT {fields}, %s, %s FROM jsonb_array_elements(%s::jsonb) AS e
RETURNING id, user_id, direction, currency, key
"""


def series_insert(new: dict[SeriesKey, SeriesValues], *, stamp: dt.datetime) -> dict[SeriesKey, int]:
    """Inserts these series (identity: values), created and updated at `stamp`; returns each one's id. A
    series already stored under the same identity (another worker's) fails the whole statement, as the ORM's
    insert would."""
    if not new:
        return {}
    quote = connection.ops.quote_name
    columns = ", ".join(quote(c) for c in (*_SERIES_KEY, *SeriesValues._fields))
    fields = ", ".join(f"(e->>{n})::{kind}" for n, kind in enumerate(_SERIES_TYPES))
    sql = _SERIES_INSERT.format(table=quote(RecurringSeries._meta.db_table), columns=columns, fields=fields)
    # Amounts as their decimal text and days in ISO form (str of a Decimal and of a date): exact, no float.
    document = json.dumps([(*key, *values) for key, values in new.items()], default=str)
    adapted = connection.ops.adapt_datetimefield_value(stamp)
    with connection.cursor() as cursor:
        cursor.execute(sql, [adapted, adapted, document])
        return {tuple(row[1:]): row[0] for row in cursor.fetchall()}


# The weekly review's claim: the batch's reviews inserted under this run's id, a (user, week) already stored
# skipped, and the users whose row this statement inserted returned. Through the ORM this is a bulk_create
# ignoring conflicts, which returns no ids for the rows it inserted (so a second query reads them back by run
# id), with each review's JSON bound as a parameter of its own (a Value compiled per row, in a statement text
# psycopg splits again for every batch); here the batch's reviews are one JSON document and RETURNING says
# which claims this run won.
_DIGESTS_CLAIM = """
INSERT INTO {table} (user_id, iso_week, week_start, payload, run_id, created_at)
SELECT (e->>0)::bigint, %s, %s, e->1, %s, %s FROM jsonb_array_elements(%s::jsonb) AS e
ON CONFLICT DO NOTHING
RETURNING user_id
"""


def digests_claim(
    reviews: dict[int, dict], *, iso_week: str, week_start: dt.date, run_id: uuid.UUID, stamp: dt.datetime
) -> set[int]:
    """Inserts each user's review of `iso_week` unless that user has one already; returns the users whose
    review this call inserted (a review stored before, or by another worker first, is not theirs)."""
    if not reviews:
        return set()
    sql = _DIGESTS_CLAIM.format(table=connection.ops.quote_name(WeeklyDigest._meta.db_table))
    document = json.dumps(list(reviews.items()))
    params = [iso_week, week_start, run_id, connection.ops.adapt_datetimefield_value(stamp), document]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {user_id for (user_id,) in cursor.fetchall()}

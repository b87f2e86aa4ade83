"""The plan statements that are better written in SQL than through the ORM, each with its reason."""

import json

from django.db import connection
from django.utils import timezone

from plans.forecast_models import ForecastWatch
from plans.models import ReminderLog

# One statement claims a batch of reminders and says which claims it won. Through the ORM this is a
# bulk_create ignoring conflicts (which returns no ids for the rows it inserted, so a second query reads them
# back by run id) that builds a model instance and binds three parameters per row; here the batch goes in as
# one JSON document (json.dumps is one C call) and RETURNING gives the plans this run claimed, the others
# having hit the unique (plan, local_date) that another worker or an earlier run holds.
_CLAIM = """
INSERT INTO {table} (plan_id, local_date, run_id, created_at)
SELECT (e->>0)::bigint, (e->>1)::date, %s, %s FROM jsonb_array_elements(%s::jsonb) AS e
ON CONFLICT DO NOTHING
RETURNING plan_id
"""


def reminders_claim(claims: list[tuple[int, str]], *, run_id) -> list[int]:
    """Inserts a ReminderLog per (plan id, local date in ISO form) carrying `run_id`, skipping those already
    claimed; returns the plan ids this call claimed."""
    if not claims:
        return []
    sql = _CLAIM.format(table=connection.ops.quote_name(ReminderLog._meta.db_table))
    stamp = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [run_id, stamp, json.dumps(claims)])
        return [plan_id for (plan_id,) in cursor.fetchall()]


# The nightly watch makes sure each user of its batch has a watch row before locking them. Through the ORM this
# is a bulk_create ignoring conflicts, which builds a model instance and binds five parameters per user of
# every batch; here the ids go in as one array, with the model's defaults written in the statement (no cushion,
# no episode open, never checked).
_WATCHES_ENSURE = """
INSERT INTO {table} (user_id, cushion, in_shortfall, checked_on, updated_at)
SELECT user_id, 0, false, NULL, %s FROM unnest(%s::bigint[]) AS user_id
ON CONFLICT (user_id) DO NOTHING
"""


def forecast_watches_ensure(user_ids: list[int]) -> None:
    """Adds the ForecastWatch of each of these users who has none (no cushion, no episode open, never checked)."""
    if not user_ids:
        return
    sql = _WATCHES_ENSURE.format(table=connection.ops.quote_name(ForecastWatch._meta.db_table))
    stamp = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [stamp, list(user_ids)])

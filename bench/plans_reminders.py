"""`plans.send_due_reminders` over 100,000 active plans in mixed timezones (docs/contract/tasks.md, issue 3).

Builds 100,000 users, profiles and active plans with bulk inserts; 90 % of the plans have their reminder
window open at the benchmark's instant, spread over 16 timezones east and west of UTC. Measures one full
pass of plans.jobs.reminders_send_due (claims, inbox rows, live-push check), the queries each batch takes,
and, as the baseline, one hand-written SQL statement that selects the same due plans and inserts the same
claim and inbox rows into scratch tables (with the real tables' indexes and foreign keys). A second pass must
send nothing.
"""

import datetime as dt
import os
import random
import time
import zoneinfo

from bench._common import settle_after_load

PLANS = int(os.environ.get("BENCH_PLANS", "100000"))  # smaller only for a smoke run
DUE_SHARE = 0.9
NOW = dt.datetime(2026, 11, 15, 12, 10, tzinfo=dt.UTC)
TIMEZONES = [
    "Asia/Ho_Chi_Minh", "Asia/Tokyo", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Sydney", "Pacific/Auckland",
    "Europe/London", "Europe/Berlin", "Africa/Lagos", "UTC", "America/Sao_Paulo", "America/New_York",
    "America/Chicago", "America/Los_Angeles", "Pacific/Honolulu", "Asia/Singapore",
]  # fmt: skip
INSERT_CHUNK = 5_000

BASELINE_SQL = """
WITH base AS (
    SELECT p.id, p.user_id, p.month, p.reminder_time,
           (%(now)s::timestamptz AT TIME ZONE pr.timezone) AS local_now
    FROM plans_monthlyplan p JOIN zeus_profile pr ON pr.user_id = p.user_id
    WHERE p.status = 'active' AND p.reminders_enabled
), windows AS (
    SELECT *, CASE WHEN local_now::time >= reminder_time THEN local_now::date ELSE local_now::date - 1 END AS day
    FROM base
), due AS (
    SELECT id, user_id, day FROM windows
    WHERE local_now < (day + reminder_time) + interval '3 hours'
      AND date_trunc('month', day)::date = month
), claimed AS (
    INSERT INTO bench_reminderlog (plan_id, local_date, run_id, created_at)
    SELECT id, day, gen_random_uuid(), now() FROM due
    ON CONFLICT DO NOTHING
    RETURNING plan_id, local_date
)
INSERT INTO bench_notification (user_id, kind, title, body, cta_url, dedupe_key, facts, created_at)
SELECT due.user_id, 'plan_reminder', 'Your plan: today''s check-in', '', '/plans#plan-' || due.id,
       'plan_reminder:' || due.id || ':' || claimed.local_date, '{"words": "plan_reminder"}', now()
FROM claimed JOIN due ON due.id = claimed.plan_id
"""


def _seed() -> float:
    from django.contrib.auth import get_user_model

    from plans.models import MonthlyPlan
    from zeus.models import Profile

    started = time.perf_counter()
    rng = random.Random(20261115)
    User = get_user_model()
    for offset in range(0, PLANS, INSERT_CHUNK):
        users = User.objects.bulk_create(
            [User(username=f"bench{n}", password="!") for n in range(offset, min(PLANS, offset + INSERT_CHUNK))]
        )
        profiles, plans = [], []
        for user in users:
            tz = TIMEZONES[user.id % len(TIMEZONES)]
            local_now = NOW.astimezone(zoneinfo.ZoneInfo(tz)).replace(tzinfo=None)
            if rng.random() < DUE_SHARE:
                opened = local_now - dt.timedelta(minutes=rng.randrange(0, 180))
            else:
                opened = local_now + dt.timedelta(minutes=rng.randrange(1, 600))
            profiles.append(Profile(user=user, timezone=tz, currency="VND"))
            plans.append(
                MonthlyPlan(
                    user=user,
                    month=opened.date().replace(day=1),
                    status=MonthlyPlan.Status.ACTIVE,
                    currency="VND",
                    expected_income=25_000_000,
                    reminder_time=dt.time(opened.hour, opened.minute),
                    activated_on=opened.date().replace(day=1),
                    alloc_fixed=7_300_000,
                    alloc_essential=8_850_000,
                    alloc_goal=3_540_000,
                    alloc_safe=5_310_000,
                )
            )
        Profile.objects.bulk_create(profiles)
        MonthlyPlan.objects.bulk_create(plans)
    settle_after_load()
    return time.perf_counter() - started


def _baseline() -> tuple[float, int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_reminderlog (LIKE plans_reminderlog INCLUDING ALL)")
        cursor.execute("CREATE TABLE bench_notification (LIKE zeus_notification INCLUDING ALL)")
        # LIKE copies no foreign key, and the job's rows are checked against theirs (each claim's plan, each
        # inbox row's user): the statement's rows are checked as the job's are, as Django declares them.
        for table, column, target in (
            ("bench_reminderlog", "plan_id", "plans_monthlyplan"),
            ("bench_notification", "user_id", "auth_user"),
        ):
            cursor.execute(
                f"ALTER TABLE {table} ADD FOREIGN KEY ({column}) REFERENCES {target} (id) DEFERRABLE INITIALLY DEFERRED"
            )
        started = time.perf_counter()
        cursor.execute(BASELINE_SQL, {"now": NOW})
        elapsed = time.perf_counter() - started
        sent = cursor.rowcount
        cursor.execute("DROP TABLE bench_reminderlog, bench_notification")
    return elapsed, sent


def run() -> list:
    from django.db import connection

    from bench._common import Row, machine, sec
    from plans import jobs

    seed_seconds = _seed()
    baseline_seconds, baseline_sent = _baseline()

    per_batch: list[int] = []
    real_send = jobs.reminders_send_batch

    def counted(claims):
        calls = []

        def count(execute, sql, params, many, context):
            calls.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            sent = real_send(claims)
        per_batch.append(len(calls))
        return sent

    total_queries = []

    def count_all(execute, sql, params, many, context):
        total_queries.append(sql)
        return execute(sql, params, many, context)

    jobs.reminders_send_batch = counted
    try:
        with connection.execute_wrapper(count_all):
            started = time.perf_counter()
            result = jobs.reminders_send_due(now=NOW)
            pass_seconds = time.perf_counter() - started
        first_pass_batches = list(per_batch)
        started = time.perf_counter()
        again = jobs.reminders_send_due(now=NOW)
        rerun_seconds = time.perf_counter() - started
    finally:
        jobs.reminders_send_batch = real_send

    assert result.reminders == baseline_sent, (result.reminders, baseline_sent)
    assert again.reminders == 0
    print(f"   {machine()}; seeded in {seed_seconds:.1f} s; {result.reminders:,} reminders due")
    ratio = pass_seconds / baseline_seconds
    return [
        Row(
            f"baseline: one SQL statement, the same {baseline_sent:,} due rows into scratch tables",
            sec(baseline_seconds),
            1.0,
        ),
        Row(
            f"one pass of `reminders_send_due` over {PLANS:,} plans ({result.reminders:,} sent)",
            sec(pass_seconds),
            ratio,
            "≤ 3x its SQL statement (issue 27)",
            ratio <= 3,
        ),
        Row(
            f"queries per batch of ≤ {jobs.REMINDER_BATCH:,} plans ({len(total_queries)} in {result.batches} batches)",
            f"1 + {min(first_pass_batches)} to 1 + {max(first_pass_batches)}",
            None,
            "constant per batch",
            len(set(first_pass_batches)) == 1,
        ),
        Row(
            "a second pass at the same instant (nothing to send)", sec(rerun_seconds), rerun_seconds / baseline_seconds
        ),
    ]

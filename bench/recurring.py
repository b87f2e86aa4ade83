"""Recurring detection and the weekly review over 10,000 users and 1,000,000 transactions, each beside one
hand-written SQL aggregate over the same rows.

The data is loaded with COPY before any clock starts: per user, 183 days ending on a Sunday; six months of
salary, rent, Netflix, Spotify and an electricity bill that follows the meter (30 rows, the series to find),
and 70 everyday expenses at a steady pace with random amounts and merchants (groceries, meals, rides,
shopping: what must not become a series). One user in fifty has a Netflix price rise on the last charge.

Baselines, what a DBA would write for the heaviest read of each job, fetched to Python:
- recurring: every (user, direction, currency, description) group of the lookback with its count, amount
  range and its dates in order (`array_agg`), the raw material of a periodicity check;
- weekly review: expense totals per user, category and ISO week over the five weeks the review compares;
  and, beside the job that writes, the same aggregate written as the job writes: one INSERT ... SELECT of
  each user's totals as a JSON review into the reviews' table and, for the rows it inserted, one inbox
  row each (a title with the week's total), in one transaction, committed (then removed, untimed).

BENCH_RECURRING_PART=detect runs the detection's rows only (the same load and baseline, no weekly review):
for working on the detection, whose rows are then the only ones the run writes into the table.
"""

import datetime as dt
import os
import random
import time

from bench._common import settle_after_load

USERS = 10_000
# Sunday 29 November 2026, 09:00 in Saigon (every bench user's timezone): the review is due for everyone.
NOW = dt.datetime(2026, 11, 29, 2, 0, tzinfo=dt.UTC)
DAYS = 183
EVERYDAY = {  # category: (merchants, per user over the 183 days, low, high in thousands of đồng)
    "groceries": (["Co.op Mart", "Bach Hoa Xanh", "WinMart", "Lotte Mart"], 22, 250, 650),
    "dining": (["Pho 24", "Highlands Coffee", "Com Tam Ba Ghien", "Pizza 4P's", "KFC"], 28, 35, 180),
    "transport": (["Grab", "Be", "Petrolimex"], 12, 25, 160),
    "shopping": (["Shopee", "Lazada", "Uniqlo", "Tiki"], 8, 100, 400),
}


def _monthly(today: dt.date, day: int, months_ago: int) -> dt.date:
    from suggestions.recurring.detection import add_months

    return add_months(today.replace(day=day), -months_ago - (1 if day > today.day else 0))


def _load() -> int:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from zeus.models import Profile

    User = get_user_model()
    User.objects.bulk_create([User(username=f"bench{n:05d}", password="!") for n in range(USERS)], batch_size=2_000)
    ids = list(User.objects.order_by("id").values_list("id", flat=True))
    Profile.objects.bulk_create([Profile(user_id=uid) for uid in ids], batch_size=2_000)
    today = NOW.date()
    rng = random.Random(13)
    columns = "user_id, amount, currency, direction, description, category, occurred_on, source, created_at, updated_at"
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY assets_transaction ({columns}) FROM STDIN") as copy:
        for n, uid in enumerate(ids):
            rows = []
            for k in range(6):
                rows.append((25_000_000, "income", "ACME Corp", "salary", _monthly(today, 5, k)))
                rows.append((6_500_000, "expense", "Landlord", "housing", _monthly(today, 1, k)))
                netflix = 300_000 if n % 50 == 7 and k == 0 else 260_000
                rows.append((netflix, "expense", "Netflix", "subscriptions", _monthly(today, 12, k)))
                rows.append((59_000, "expense", "Spotify", "subscriptions", _monthly(today, 20, k)))
                meter = rng.randint(560, 760) * 1_000
                rows.append((meter, "expense", "EVN HCMC", "utilities", _monthly(today, 10, k)))
            for category, (merchants, times, low, high) in EVERYDAY.items():
                for i in range(times):
                    offset = min(DAYS - 1, int(i * DAYS / times) + rng.randrange(3))
                    rows.append(
                        (
                            rng.randint(low, high) * 1_000,
                            "expense",
                            rng.choice(merchants),
                            category,
                            today - dt.timedelta(days=offset),
                        )
                    )
            for amount, direction, description, category, occurred_on in rows:
                copy.write_row((uid, amount, "VND", direction, description, category, occurred_on, "synced", NOW, NOW))
    settle_after_load()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM assets_transaction")
        return cursor.fetchone()[0]


RECURRING_SQL = """
SELECT user_id, direction, currency, description, count(*), min(amount), max(amount),
       array_agg(occurred_on ORDER BY occurred_on)
FROM assets_transaction
WHERE occurred_on BETWEEN %s AND %s
GROUP BY 1, 2, 3, 4
"""

DIGEST_SQL = """
SELECT user_id, currency, category, (occurred_on - %s::date) / 7 AS week, SUM(amount)
FROM assets_transaction
WHERE direction = 'expense' AND occurred_on BETWEEN %s AND %s
GROUP BY 1, 2, 3, 4
"""

# The weekly aggregate above, written: each user's totals as the review's JSON (ON CONFLICT DO NOTHING, as
# the job claims), then an inbox row per review inserted, with the week's total in the title, the body and the
# facts the notice is worded from when read.
DIGEST_WRITE_SQL = """
WITH t AS (
    SELECT user_id, currency, category, (occurred_on - %(start)s::date) / 7 AS week, SUM(amount) AS spent
    FROM assets_transaction
    WHERE direction = 'expense' AND occurred_on BETWEEN %(start)s AND %(end)s
    GROUP BY 1, 2, 3, 4
), u AS (
    SELECT user_id, jsonb_agg(jsonb_build_array(currency, category, week, spent::text)) AS payload,
           coalesce(sum(spent) FILTER (WHERE week = 4), 0) AS spent
    FROM t GROUP BY user_id
), d AS (
    INSERT INTO suggestions_weeklydigest (user_id, iso_week, week_start, payload, run_id, created_at)
    SELECT user_id, %(week)s, %(monday)s, payload, gen_random_uuid(), now() FROM u
    ON CONFLICT DO NOTHING RETURNING user_id
)
INSERT INTO zeus_notification (user_id, kind, title, body, cta_url, dedupe_key, facts, created_at)
SELECT d.user_id, 'weekly_digest',
       'Your week ' || %(week)s || ': ' || to_char(u.spent, 'FM999G999G999G990') || ' ₫ spent',
       'You spent ' || to_char(u.spent, 'FM999G999G999G990') || ' ₫ this week.', '/digest/' || %(week)s,
       'weekly_digest:' || %(week)s, jsonb_build_object('review', jsonb_build_object('spent', u.spent::text)),
       now()
FROM d JOIN u USING (user_id)
ON CONFLICT DO NOTHING
"""
BASELINE_WEEK = "base-W48"  # the baseline's own week label: it never meets the job's rows


def run() -> list:
    from django.db import connection
    from django.db.models import Count

    from bench._common import Row, machine, sec, timed
    from suggestions.batches import user_batches
    from suggestions.digest.compose import compose
    from suggestions.digest.job import weekly_digest_send
    from suggestions.models import RecurringSeries, Suggestion, WeeklyDigest
    from suggestions.recurring.job import recurring_detect
    from suggestions.thresholds import RECURRING_LOOKBACK_DAYS
    from zeus.models import Notification

    started = time.perf_counter()
    loaded = _load()
    load_s = time.perf_counter() - started
    today = NOW.date()
    monday = today - dt.timedelta(days=today.weekday())

    def fetch(sql, params):
        def go():
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchall()

        return go

    recurring_base = fetch(RECURRING_SQL, [today - dt.timedelta(days=RECURRING_LOOKBACK_DAYS), today])
    recurring_rows = len(recurring_base())
    recurring_base_s = timed(recurring_base, repeat=3)

    started = time.perf_counter()
    first = recurring_detect(now=NOW)
    detect_s = time.perf_counter() - started
    started = time.perf_counter()
    again = recurring_detect(now=NOW)
    redetect_s = time.perf_counter() - started
    kinds = dict(RecurringSeries.objects.values_list("kind").order_by("kind").annotate(n=Count("id")))
    rises = Suggestion.objects.filter(kind="price_change").count()
    detect_ratio = detect_s / recurring_base_s
    detection_rows = [
        Row(f"baseline: the recurring groups' SQL aggregate ({recurring_rows:,} groups)", sec(recurring_base_s), 1.0),
        Row(
            f"`detect_recurring`, first run ({first.series:,} series, {first.insights:,} insights)",
            sec(detect_s),
            detect_ratio,
            "≤ 3x baseline",
            detect_ratio <= 3,
        ),
        Row(f"`detect_recurring` again ({again.created} new)", sec(redetect_s), redetect_s / recurring_base_s),
    ]
    if os.environ.get("BENCH_RECURRING_PART") == "detect":
        print(f"   {machine()}; {loaded:,} transactions loaded in {load_s:.1f} s; series {kinds}; {rises:,} rises")
        return detection_rows

    start = monday - dt.timedelta(days=28)
    digest_base = fetch(DIGEST_SQL, [start, start, monday + dt.timedelta(days=6)])
    digest_rows = len(digest_base())
    digest_base_s = timed(digest_base, repeat=3)

    def compose_all():
        return sum(len(compose(batch, start=monday, now=NOW)) for batch in user_batches())

    composed = compose_all()
    # Composing only reads, so it is timed as its read-only baseline is: the median of three runs.
    compose_s = timed(compose_all, repeat=3)

    started = time.perf_counter()
    sent = weekly_digest_send(now=NOW)
    digest_s = time.perf_counter() - started
    started = time.perf_counter()
    resent = weekly_digest_send(now=NOW + dt.timedelta(hours=1))
    redigest_s = time.perf_counter() - started
    stored = WeeklyDigest.objects.count()
    inbox = Notification.objects.filter(kind="weekly_digest").count()

    from django.db import transaction

    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            DIGEST_WRITE_SQL,
            {"start": start, "end": monday + dt.timedelta(days=6), "week": BASELINE_WEEK, "monday": monday},
        )
        written = cursor.rowcount
    digest_write_base_s = time.perf_counter() - started
    WeeklyDigest.objects.filter(iso_week=BASELINE_WEEK).delete()
    Notification.objects.filter(dedupe_key=f"weekly_digest:{BASELINE_WEEK}").delete()

    print(f"   {machine()}; {loaded:,} transactions loaded in {load_s:.1f} s; series {kinds}; {rises:,} price rises;")
    print(f"   {stored:,} reviews stored, {inbox:,} in the inbox")
    # The targets: detection's first run (its writes included) against the read aggregate; the review's
    # reads and arithmetic against the read aggregate, and the review sent against the aggregate that writes
    # the same rows (a job that writes is compared with SQL that writes them).
    compose_ratio = compose_s / digest_base_s
    sent_ratio = digest_s / digest_write_base_s
    return [
        *detection_rows,
        Row(f"baseline: the review's weekly totals, SQL aggregate ({digest_rows:,} rows)", sec(digest_base_s), 1.0),
        Row(
            f"the {composed:,} reviews composed, nothing written",
            sec(compose_s),
            compose_ratio,
            "≤ 3x baseline",
            compose_ratio <= 3,
        ),
        Row(f"baseline: that aggregate written as reviews and inbox rows ({written:,})", sec(digest_write_base_s), 1.0),
        Row(
            f"`send_weekly_digest`, first run ({sent:,} sent), against the writing baseline",
            sec(digest_s),
            sent_ratio,
            "≤ 3x writing baseline",
            sent_ratio <= 3,
        ),
        Row(f"`send_weekly_digest` an hour later ({resent} sent)", sec(redigest_s), redigest_s / digest_base_s),
    ]

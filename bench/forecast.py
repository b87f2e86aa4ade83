"""The cash-flow forecast (plans/forecast_read.py) for a heavy user, and the nightly shortfall watch over many users.

One user with 50,000 transactions over five years (the home benchmark's) and 40 recurring series: the forecast
read `cash_forecast` alternately with a baseline of the one SQL aggregate at its heart (the spendable balances
and the 90 days' spending by day), its queries counted against a user with a short history. Then the shortfall
watch (`plans.forecast_jobs.shortfall_watch_run`, what each Celery batch runs) over USERS users, each with a bank
account, a salary and two bills, against one SQL aggregate of every user's balance and 90 days of spending.
"""

import datetime as dt
import random
import time
from decimal import Decimal

from bench._common import settle_after_load

USERS = 10_000
SPENDING_DAYS = (50, 80)  # of the last 90, per watched user
SERIES = 40
SAMPLES = 200
BASELINE_SQL = """
    SELECT (SELECT COALESCE(SUM(balance), 0) FROM assets_asset WHERE user_id = %(user)s
            AND kind IN ('cash', 'bank_account', 'e_wallet')),
           (SELECT array_agg(t) FROM (SELECT occurred_on, SUM(amount) AS t FROM assets_transaction
            WHERE user_id = %(user)s AND direction = 'expense' AND occurred_on >= %(since)s
            GROUP BY occurred_on) days)
"""
EVERY_USER_SQL = """
    SELECT a.user_id, SUM(a.balance), (SELECT SUM(amount) FROM assets_transaction t WHERE t.user_id = a.user_id
           AND t.direction = 'expense' AND t.occurred_on >= %(since)s)
    FROM assets_asset a WHERE a.kind IN ('cash', 'bank_account', 'e_wallet') GROUP BY a.user_id
"""


def _series(user_id: int, today: dt.date, n: int, rng: random.Random):
    from suggestions.models import RecurringSeries

    income = n % 10 == 0
    return RecurringSeries(
        user_id=user_id,
        key=f"merchant {n}",
        direction="income" if income else "expense",
        merchant=f"Merchant {n}",
        kind="income" if income else "bill",
        amount=Decimal(rng.randrange(50, 3_000) * 1000 * (10 if income else 1)),
        currency="VND",
        interval="monthly",
        last_on=today - dt.timedelta(days=rng.randrange(1, 28)),
        next_on=today + dt.timedelta(days=rng.randrange(1, 30)),
        category="salary" if income else "utilities",
        occurrences=6,
    )


def _p95(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.95)]


def _heavy(today: dt.date):
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench import home
    from plans.forecast_read import cash_forecast
    from plans.services import plan_activate, plan_create
    from suggestions.models import RecurringSeries
    from tests import factories

    user = home.load(today)
    rng = random.Random(30)
    RecurringSeries.objects.bulk_create([_series(user.id, today, n, rng) for n in range(SERIES)])
    # The same shape with a short history: an account, a row, this month's active plan, one series.
    small = get_user_model().objects.create_user(username="small", password="!")
    factories.asset(small, kind="bank_account", balance="5000000")
    factories.txn(small, amount="50000")
    plan = plan_create(user=small, month=f"{today:%Y-%m}", expected_income="30tr", fixed_expenses=[])
    plan_activate(user=small, plan_id=plan.id)
    RecurringSeries.objects.bulk_create([_series(small.id, today, 1, rng)])

    def queries(who) -> int:
        with CaptureQueriesContext(connection) as seen:
            cash_forecast(user=who, today=today)
        return len(seen)

    for _ in range(5):
        cash_forecast(user=user, today=today)
    forecast_s, baseline_s = [], []
    since = today - dt.timedelta(days=90)
    with connection.cursor() as cursor:
        for _ in range(SAMPLES):
            started = time.perf_counter()
            cash_forecast(user=user, today=today)
            forecast_s.append(time.perf_counter() - started)
            started = time.perf_counter()
            cursor.execute(BASELINE_SQL, {"user": user.id, "since": since})
            cursor.fetchall()
            baseline_s.append(time.perf_counter() - started)
    return _p95(forecast_s), _p95(baseline_s), queries(user), queries(small)


def _many(now: dt.datetime) -> tuple[float, float]:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from assets.models import Asset
    from plans.forecast_jobs import shortfall_watch_run
    from suggestions.models import RecurringSeries
    from zeus.models import Profile

    User = get_user_model()
    User.objects.bulk_create([User(username=f"watch{n:05d}", password="!") for n in range(USERS)], batch_size=2_000)
    ids = list(User.objects.filter(username__startswith="watch").order_by("id").values_list("id", flat=True))
    Profile.objects.bulk_create([Profile(user_id=uid, timezone="UTC") for uid in ids], batch_size=2_000)
    rng = random.Random(31)
    today = now.date()
    Asset.objects.bulk_create(
        [
            Asset(
                user_id=uid, name="Bank", kind="bank_account", balance=rng.randrange(0, 20_000) * 1000, currency="VND"
            )
            for uid in ids
        ],
        batch_size=5_000,
    )
    RecurringSeries.objects.bulk_create(
        [_series(uid, today, n, rng) for uid in ids for n in (0, 1, 2)], batch_size=5_000
    )
    # Spending on most days, as a user who records what they spend does: the typical day (the median) is then
    # money, not zero, and with the balances above about one user in seven runs short before payday.
    columns = "user_id, amount, currency, direction, description, category, occurred_on, source, created_at, updated_at"
    stamp = dt.datetime.now(dt.UTC)
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY assets_transaction ({columns}) FROM STDIN") as copy:
        for uid in ids:
            for back in rng.sample(range(1, 91), rng.randrange(SPENDING_DAYS[0], SPENDING_DAYS[1])):
                amount = rng.randrange(20, 400) * 1000
                day = today - dt.timedelta(days=back)
                copy.write_row((uid, amount, "VND", "expense", "Spending", "dining", day, "manual", stamp, stamp))
    settle_after_load()
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(EVERY_USER_SQL, {"since": today - dt.timedelta(days=90)})
        cursor.fetchall()
    baseline = time.perf_counter() - started
    started = time.perf_counter()
    shortfall_watch_run(now=now, user_id_range=(ids[0], ids[-1]))
    return time.perf_counter() - started, baseline


def run() -> list:
    from django.utils import timezone

    from bench._common import Row, ms, sec

    now = timezone.now().replace(hour=12)
    forecast, baseline, heavy_queries, small_queries = _heavy(now.date())
    job, job_baseline = _many(now)
    return [
        Row(
            figure=f"`cash_forecast`, p95 of {SAMPLES}, 50,000 transactions and {SERIES} series "
            f"({heavy_queries} queries; {small_queries} for a short history)",
            value=ms(forecast),
            ratio=forecast / baseline,
            target="p95 ≤ 20 ms, queries as for a short history",
            met=forecast <= 0.020 and heavy_queries == small_queries,
        ),
        Row(
            figure=f"the shortfall watch over {USERS:,} users (one batch, in process)",
            value=f"{sec(job)} (aggregate {sec(job_baseline)})",
            ratio=job / job_baseline,
            target="≤ 3x its SQL aggregate",
            met=job <= 3 * job_baseline,
        ),
        Row(figure="the watch, per user", value=ms(job / USERS), ratio=None),
    ]

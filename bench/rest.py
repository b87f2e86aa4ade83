"""The REST views in process: a plan, the plan list and transaction pages for a user with 50,000 transactions
over five years, beside a user with 500, each request through Django's WSGI handler (middleware, token
auth, the view, JSON rendering) with no server or socket. The baseline is a minimal DRF view behind the same
token auth, measured in the same run. The bench's clock stands at noon on a month's last day (in the
users' Saigon), so the plan's month holds a whole month of spending whatever day the bench runs on.

Every API request pays the token check (one query: the token with its user and profile). Transaction pages read
only the columns they show, keyset-paged on the (user, -occurred_on, -id) index and the direction and source
indexes, so a query count that differs between the two users is a regression.
"""

import datetime as dt
import random
import time
import uuid
from decimal import Decimal
from io import BytesIO

from bench._common import Row, machine, ms, percentile, settle_after_load

BIG, SMALL = 50_000, 500
YEARS = 5
REPEAT, BLOCK = 300, 10
# Noon on 30 November 2026 in Saigon: the plan's month as full as it gets.
AT = dt.datetime(2026, 11, 30, 5, tzinfo=dt.UTC)
CATEGORIES = ["dining", "groceries", "transport", "shopping", "entertainment", "utilities", "health", "housing"]


def _seed(n: int) -> tuple[str, int]:
    from assets.models import Asset, Source, Transaction
    from plans.services import plan_entry_create
    from tests import factories
    from tests.plans.factories import plan
    from zeus.accounts.services import device_token_create
    from zeus.timeutil import user_today

    user = factories.user(f"rest-{uuid.uuid4().hex[:8]}")
    today = user_today(user)
    bank = Asset.objects.create(user=user, name="Bank", kind="bank", balance=0, currency="VND", source=Source.SYNCED)
    rnd = random.Random(n)
    rows = []
    for i in range(n):
        synced = rnd.random() < 0.3
        rows.append(
            Transaction(
                user=user,
                amount=Decimal(rnd.randrange(10, 2000) * 1000),
                currency="VND",
                direction="income" if rnd.random() < 0.03 else "expense",
                description=f"Payment {i}",
                category=rnd.choice(CATEGORIES),
                occurred_on=today - dt.timedelta(days=rnd.randrange(YEARS * 365)),
                source=Source.SYNCED if synced else Source.MANUAL,
                external_id=f"x{i}" if synced else None,
                asset=bank if synced else None,
            )
        )
    Transaction.objects.bulk_create(rows, batch_size=5000)
    made = plan(user, month=today.strftime("%Y-%m"), active=True)
    plan_entry_create(user=user, plan_id=made.id, kind="discretionary", amount="50000")
    return device_token_create(user=user, name="bench").key, made.id


def _call(handler, path: str, token: str) -> tuple[int, bytes]:
    path, _, query = path.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_AUTHORIZATION": f"Token {token}",
        "wsgi.input": BytesIO(b""),
        "wsgi.url_scheme": "http",
        "wsgi.errors": BytesIO(),
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    status = []
    body = b"".join(handler(environ, lambda s, h, *a: status.append(int(s.split()[0]))))
    return status[0], body


def _queries(handler, path: str, token: str) -> int:
    """The queries one request of `path` makes, after a warm-up."""
    from django.db import connection

    for _ in range(20):
        _call(handler, path, token)
    queries = []
    # A wrapper, not CaptureQueriesContext: the handler's request_started signal resets the debug query log.
    with connection.execute_wrapper(lambda execute, sql, *args: queries.append(sql) or execute(sql, *args)):
        status, _ = _call(handler, path, token)
    if status != 200:
        raise RuntimeError(f"{path}: {status}")
    return len(queries)


def _measure(handler, calls: dict) -> dict:
    """p50 and p99 (ms) of each call (key -> (path, token)), timed in rounds of BLOCK requests of each in turn: a
    drift of the machine's speed meets every request alike, so the ratios to the baseline hold, and a block is
    long enough for its view to run as it does when it is asked for again and again (the first request after
    another view meets the caches that view left)."""
    samples = {key: [] for key in calls}
    for _ in range(REPEAT // BLOCK):
        for key, (path, token) in calls.items():
            for _ in range(BLOCK):
                started = time.perf_counter()
                _call(handler, path, token)
                samples[key].append(time.perf_counter() - started)
    return {key: (percentile(v, 50) * 1000, percentile(v, 99) * 1000) for key, v in samples.items()}


def run() -> list:
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.urls import clear_url_caches, set_urlconf
    from django.utils import timezone

    timezone.now = lambda: AT  # this process only: each view reads its "today" from it
    settings.ROOT_URLCONF = "bench._serving_urls"
    clear_url_caches()
    set_urlconf(None)
    started = time.perf_counter()
    big, small = _seed(BIG), _seed(SMALL)
    settle_after_load()
    seeded = time.perf_counter() - started
    handler = WSGIHandler()
    requests = [
        ("baseline: a minimal DRF view behind token auth", "/bench/drf"),
        ("`GET /api/v1/profile`", "/api/v1/profile"),
        ("`GET /api/v1/plans/{id}`", "/api/v1/plans/{plan}"),
        ("`GET /api/v1/plans`", "/api/v1/plans"),
        ("`GET /api/v1/transactions` (50 rows)", "/api/v1/transactions"),
        ("`GET /api/v1/transactions?page_size=200`", "/api/v1/transactions?page_size=200"),
        ("`GET /api/v1/transactions?direction=income`", "/api/v1/transactions?direction=income"),
        ("`GET /api/v1/transactions?source=synced&page_size=200`", "/api/v1/transactions?source=synced&page_size=200"),
    ]
    calls = {
        (label, name): (path.format(plan=plan_id), token)
        for label, path in requests
        for name, (token, plan_id) in (("big", big), ("small", small))
    }
    queries = {key: _queries(handler, path, token) for key, (path, token) in calls.items()}
    times = _measure(handler, calls)
    figures = {key: (*times[key], queries[key]) for key in calls}
    base = figures[(requests[0][0], "big")][0]
    print(f"   {machine()}; seeded in {seeded:.1f} s")
    rows = [Row(f"{requests[0][0]}, p50", ms(base / 1000), 1.0)]
    for label, _ in requests[1:]:
        p50, p99, count = figures[(label, "big")]
        small_count = figures[(label, "small")][2]
        rows.append(
            Row(
                f"{label}, p99 ({BIG:,} transactions; {count} queries, {small_count} for {SMALL})",
                f"{p99:.2f} ms",
                p50 / base,
                "p99 ≤ 10 ms, queries as for the small user",
                p99 <= 10 and count == small_count,
            )
        )
    page200 = figures[(requests[5][0], "big")][0]
    plan_share = base / figures[(requests[2][0], "big")][0]
    rows.append(Row("a 200-row transactions page, p50", f"{page200:.2f} ms", page200 / base, "≤ 5 ms", page200 <= 5))
    rows.append(
        Row("`plans/{id}`: its rate over the minimal view's", f"{plan_share:.0%}", None, "≥ 60 %", plan_share >= 0.6)
    )
    return rows

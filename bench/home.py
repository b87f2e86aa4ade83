"""The home page for a heavy user: 50,000 transactions over five years, against a bare page.

The data is loaded with COPY before any clock starts. Both pages are requested through Django's test client
(the whole middleware stack, the session, the language, the navigation's unread count), alternately, so both
see the same machine. The baseline is a template that extends the base layout and shows nothing; the home
reads every panel (net worth and its trend, this month, safe to spend, budgets, goals, bills, insights) and
draws two charts with their tables. Server time is the client's wall time per request.
"""

import datetime as dt
import random
import time

from bench._common import settle_after_load

TRANSACTIONS = 50_000
YEARS = 5
SAMPLES = 300


def load(today: dt.date):
    from django.contrib.auth import get_user_model
    from django.db import connection

    from assets.models import Asset
    from goals.models import Budget, Goal
    from plans.services import plan_activate, plan_create
    from suggestions.models import Suggestion
    from zeus.models import Notification, Profile

    user = get_user_model().objects.create_user(username="heavy", password="!")
    Profile.objects.update_or_create(user=user, defaults={"language": "vi"})
    for n, kind in enumerate(["bank_account", "bank_account", "cash", "e_wallet", "savings", "investment"]):
        Asset.objects.create(user=user, name=f"{kind} {n}", kind=kind, balance=10_000_000 * (n + 1), currency="VND")
    for category, amount in [("groceries", 6e6), ("dining", 5e6), ("transport", 2.5e6), ("shopping", 3e6),
                             ("entertainment", 1e6), ("utilities", 2e6), ("health", 1e6), ("travel", 4e6)]:  # fmt: skip
        Budget.objects.create(user=user, category=category, amount=int(amount), currency="VND")
    for n in range(4):
        Goal.objects.create(
            user=user, name=f"Goal {n}", kind="savings", target_amount=100_000_000, current_amount=n * 10_000_000,
            currency="VND", deadline=today.replace(year=today.year + 3), started_on=today.replace(year=today.year - 1),
        )  # fmt: skip
    plan = plan_create(
        user=user, month=f"{today:%Y-%m}", expected_income="30tr", lifestyle_mode="balanced",
        fixed_expenses=[{"name": "Rent", "amount": "6.5tr", "category": "housing"},
                        {"name": "Power", "amount": "800k", "category": "utilities"},
                        {"name": "Internet", "amount": "250k", "category": "utilities"}],
    )  # fmt: skip
    plan_activate(user=user, plan_id=plan.id)
    Suggestion.objects.bulk_create(
        [
            Suggestion(user=user, kind="category_spike", title=f"Insight {n}", body="…", dedupe_key=f"b{n}")
            for n in range(20)
        ]
    )
    Notification.objects.bulk_create(
        [Notification(user=user, kind="insight", title=f"Note {n}", body="…") for n in range(50)]
    )

    rng = random.Random(14)
    categories = ["groceries", "dining", "transport", "shopping", "entertainment", "utilities", "health", "travel"]
    columns = "user_id, amount, currency, direction, description, category, occurred_on, source, created_at, updated_at"
    days = YEARS * 365
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY assets_transaction ({columns}) FROM STDIN") as copy:
        for n in range(TRANSACTIONS):
            day = today - dt.timedelta(days=int(n * days / TRANSACTIONS))
            if n % 60 == 0:
                row = (25_000_000, "income", "ACME Corp", "salary")
            else:
                row = (rng.randint(20, 900) * 1_000, "expense", f"Shop {n % 97}", rng.choice(categories))
            now = dt.datetime.now(dt.UTC)
            copy.write_row((user.id, row[0], "VND", row[1], row[2], row[3], day, "manual", now, now))
    settle_after_load()
    return user


def run() -> list:
    from django.test import Client
    from django.test.utils import override_settings

    from bench._common import Row, machine, ms, percentile
    from zeus.timeutil import user_today

    started = time.perf_counter()
    from django.contrib.auth import get_user_model

    probe = get_user_model().objects.create_user(username="probe", password="!")
    today = user_today(probe)
    user = load(today)
    load_s = time.perf_counter() - started

    with override_settings(ROOT_URLCONF="bench._home_urls", DEBUG=False):
        client = Client()
        client.force_login(user)
        for path in ("/", "/bench/bare"):  # warm: templates compiled, connections open
            for _ in range(5):
                assert client.get(path).status_code == 200
        home_queries, bare_queries = _queries(client, "/"), _queries(client, "/bench/bare")
        home, bare = [], []
        for _ in range(SAMPLES):
            for path, samples in (("/", home), ("/bench/bare", bare)):
                t = time.perf_counter()
                response = client.get(path)
                samples.append(time.perf_counter() - t)
                assert response.status_code == 200

    p50 = {name: percentile(s, 50) for name, s in (("home", home), ("bare", bare))}
    p95 = {name: percentile(s, 95) for name, s in (("home", home), ("bare", bare))}
    print(f"   {machine()}; one user, {TRANSACTIONS:,} transactions loaded in {load_s:.1f} s")
    ratio = p95["home"] / p95["bare"]
    return [
        Row(f"baseline: a bare page on the base layout, p95 ({bare_queries} queries)", ms(p95["bare"]), 1.0),
        Row(
            f"`/` the home, p95 of {SAMPLES} requests, {TRANSACTIONS:,} transactions over {YEARS} years",
            ms(p95["home"]),
            ratio,
            "≤ 3x baseline",
            ratio <= 3,
        ),
        Row("`/` the home, p50", ms(p50["home"]), p50["home"] / p50["bare"]),
        Row("`/` the home, queries a request", str(home_queries), None, "constant in the history (tests)", None),
    ]


def _queries(client, path: str) -> int:
    """Statements one request runs (Django resets its own query log when a request starts)."""
    from django.db import connection

    count = 0

    def counting(execute, sql, params, many, context):
        nonlocal count
        count += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counting):
        client.get(path)
    return count

"""Nightly insights over 10,000 users and 1,000,000 transactions, against one hand-written SQL aggregate.

The data is loaded with COPY before any clock starts. The baseline is the single query a DBA would write
for the heaviest part of the job (weekly expense totals per user and category over the 91 days), fetched
to Python; the job itself also finds duplicates, checks budgets, and writes suggestions and notifications.

Each user looks like the demo user (salary, rent, a subscription, groceries, meals, rides, small shopping at a
steady pace, random amounts); planted: a shopping spree for 2 % of users, a double charge for 1 %, a transport
budget that spending passes for 1 %. A few more insights come from the randomness, as in life.
"""

import datetime as dt
import random
import time

from bench._common import settle_after_load

USERS = 10_000
MERCHANTS = {
    "groceries": ["Co.op Mart", "Bach Hoa Xanh", "WinMart", "Lotte Mart"],
    "dining": ["Pho 24", "Highlands Coffee", "Com Tam Ba Ghien", "Pizza 4P's", "Banh Mi Huynh Hoa", "KFC"],
    "transport": ["Grab", "Be", "Petrolimex"],
    "shopping": ["Shopee", "Lazada", "Uniqlo", "Tiki"],
    "entertainment": ["CGV Cinemas", "Galaxy Cinema"],
}
RANGES = {  # thousands of đồng
    "groceries": (250, 650),
    "dining": (35, 180),
    "transport": (25, 160),
    "shopping": (100, 400),
    "entertainment": (90, 300),
}
# Per user over 91 days: 3 salaries, 3 rents, 3 subscriptions and 91 everyday expenses, like the demo user.
EVERYDAY = {"groceries": 26, "dining": 40, "transport": 13, "shopping": 10, "entertainment": 2}


def load(now: dt.datetime) -> tuple[dt.date, int]:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from goals.models import Budget
    from zeus.models import Profile

    User = get_user_model()
    User.objects.bulk_create([User(username=f"bench{n:05d}", password="!") for n in range(USERS)], batch_size=2_000)
    ids = list(User.objects.order_by("id").values_list("id", flat=True))
    Profile.objects.bulk_create([Profile(user_id=uid) for uid in ids], batch_size=2_000)
    budgets = []
    for n, uid in enumerate(ids):
        if n % 2 == 0:
            budgets += [
                Budget(user_id=uid, category="dining", amount=5_000_000, currency="VND"),
                Budget(user_id=uid, category="groceries", amount=6_000_000, currency="VND"),
                # one budgeting user in fifty keeps a transport limit their spending passes
                Budget(user_id=uid, category="transport", amount=2_500_000 if n % 100 else 400_000, currency="VND"),
            ]
    Budget.objects.bulk_create(budgets, batch_size=5_000)

    today = now.date()
    rng = random.Random(6)
    columns = "user_id, amount, currency, direction, description, category, occurred_on, source, created_at, updated_at"
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY assets_transaction ({columns}) FROM STDIN") as copy:
        for n, uid in enumerate(ids):
            rows = []
            for k in range(3):  # monthly: salary on the 5th, rent on the 1st, a subscription on the 12th
                rows.append((25_000_000, "income", "ACME Corp", "salary", _monthly(today, 5, k)))
                rows.append((6_500_000, "expense", "Landlord", "housing", _monthly(today, 1, k)))
                rows.append((260_000, "expense", "Netflix", "subscriptions", _monthly(today, 12, k)))
            for category, times in EVERYDAY.items():  # at a steady pace, as people shop and eat
                low, high = RANGES[category]
                for i in range(times):
                    offset = min(90, int(i * 91 / times) + rng.randrange(2))
                    rows.append(
                        (
                            rng.randint(low, high) * 1_000,
                            "expense",
                            rng.choice(MERCHANTS[category]),
                            category,
                            today - dt.timedelta(days=offset),
                        )
                    )
            if n % 50 == 1:  # a shopping spree in the last week
                rows[-1] = (7_500_000, "expense", "Uniqlo", "shopping", today - dt.timedelta(days=2))
            if n % 100 == 3:  # a double charge
                rows[-2] = (240_000, "expense", "CGV Cinemas", "entertainment", today - dt.timedelta(days=2))
                rows[-3] = rows[-2]
            for amount, direction, description, category, occurred_on in rows:
                copy.write_row((uid, amount, "VND", direction, description, category, occurred_on, "synced", now, now))
    settle_after_load()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM assets_transaction")
        loaded = cursor.fetchone()[0]
    return today, loaded


def _monthly(today: dt.date, day_of_month: int, months_ago: int) -> dt.date:
    """The `day_of_month` that is `months_ago` occurrences back, never after today (so within 91 days)."""
    back = (today.day - day_of_month) % 30
    return today - dt.timedelta(days=back + 30 * months_ago)


BASELINE_SQL = """
SELECT user_id, currency, category, (%s::date - occurred_on) / 7 AS week, SUM(amount)
FROM assets_transaction
WHERE direction = 'expense' AND occurred_on BETWEEN %s AND %s
GROUP BY 1, 2, 3, 4
"""


def run() -> list:
    from django.db import connection
    from django.db.models import Count

    from bench._common import Row, machine, sec, timed
    from suggestions.insights.job import insights_generate
    from suggestions.models import Suggestion
    from zeus.models import Notification

    # A fixed instant, so every run does the same work (month-to-date budgets cross more thresholds late in a
    # month); noon in Saigon, so every user's today is the same date as the data's.
    now = dt.datetime(2026, 11, 20, 5, tzinfo=dt.UTC)
    started = time.perf_counter()
    today, loaded = load(now)
    load_s = time.perf_counter() - started

    def baseline():
        with connection.cursor() as cursor:
            cursor.execute(BASELINE_SQL, [today, today - dt.timedelta(days=90), today])
            return cursor.fetchall()

    baseline_rows = len(baseline())
    baseline_s = timed(baseline, repeat=3)

    started = time.perf_counter()
    created = insights_generate(now=now)
    insights_s = time.perf_counter() - started
    started = time.perf_counter()
    again = insights_generate(now=now)
    rerun_s = time.perf_counter() - started

    kinds = dict(Suggestion.objects.values_list("kind").order_by("kind").annotate(n=Count("id")))
    notes = Notification.objects.filter(kind="insight").count()
    print(
        f"   {machine()}; {loaded:,} transactions loaded in {load_s:.1f} s; insights {kinds}; {notes:,} notifications"
    )
    ratio = insights_s / baseline_s
    return [
        Row(f"baseline: one SQL aggregate, weekly expense totals ({baseline_rows:,} rows)", sec(baseline_s), 1.0),
        Row(
            f"`generate_insights` over {USERS:,} users (first run: {created:,} insights)",
            sec(insights_s),
            ratio,
            "≤ 120 s and ≤ 3x baseline",
            insights_s <= 120 and ratio <= 3,
        ),
        Row(f"`generate_insights` again (idempotent: {again} new)", sec(rerun_s), rerun_s / baseline_s),
    ]

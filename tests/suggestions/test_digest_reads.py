"""The weekly review's reads: a batch's queries do not grow with its users or their plans, and the weeks before
are read as one group per user."""

import datetime as dt
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from plans.services import plan_activate, plan_create
from suggestions.batches import user_batches
from suggestions.digest.job import weekly_digest_send
from tests import factories
from tests.suggestions.digest_week import MONDAY, SUNDAY_9_SAIGON, netflix_due, ordinary_month, review, spend
from tests.suggestions.factories import suggestion


def _queries(n, prefix):
    """The queries of one batch's send, every user with each part of a review: a goal, a bill due next week,
    an insight, a row in another currency that no rate converts, half of them in English and mailed."""
    from goals.services import goal_create
    from zeus.services import profile_update

    users = [factories.user(f"{prefix}{k}", language=("vi", "en")[k % 2]) for k in range(n)]
    for k, user in enumerate(users):
        ordinary_month(user)
        factories.txn(user, amount="40", currency="USD", occurred_on=MONDAY + dt.timedelta(days=2))
        goal_create(user=user, name=f"Fund {k}", kind="emergency_fund", target_amount="10000000",
                    current_amount="2500000", deadline=dt.date(2027, 11, 1))  # fmt: skip
        netflix_due(user)
        suggestion(user, kind="price_change", title="Netflix went up")
        if k % 2:
            user.email = f"{user.username}@example.com"
            user.save(update_fields=["email"])
            profile_update(user=user, email_notifications={"weekly_digest": True})
    with CaptureQueriesContext(connection) as ctx:
        assert weekly_digest_send(user_ids=[u.id for u in users], now=SUNDAY_9_SAIGON) == n
    assert all(review(u).payload["rate_missing"] for u in users)
    assert all(review(u).payload["goals"] and review(u).payload["due_next_week"] for u in users)
    return len(ctx)


def test_queries_per_batch_do_not_grow_with_users(db):
    assert _queries(2, "a") == _queries(9, "b")


def _compose_queries(users) -> tuple[dict, int]:
    from suggestions.digest import compose

    batch = [b for part in user_batches(user_ids=[u.id for u in users]) for b in part]
    with CaptureQueriesContext(connection) as queries:
        reviews = compose.compose(batch, start=MONDAY, now=SUNDAY_9_SAIGON)
    return reviews, len(queries)


def test_a_batch_s_reads_do_not_grow_with_its_users_or_their_plans(db):
    few = [factories.user(f"f{k}") for k in range(2)]
    many = [factories.user(f"m{k}") for k in range(7)]
    for user in few + many:
        ordinary_month(user)
    _, nobody_plans = _compose_queries(few)
    assert _compose_queries(many)[1] == nobody_plans
    for user in many[:3]:
        plan = plan_create(user=user, month="2026-11", expected_income="20000000", today=MONDAY - dt.timedelta(days=20))
        plan_activate(user=user, plan_id=plan.id, today=MONDAY - dt.timedelta(days=20))
    plan = plan_create(user=few[0], month="2026-11", expected_income="20000000", today=MONDAY - dt.timedelta(days=20))
    plan_activate(user=few[0], plan_id=plan.id, today=MONDAY - dt.timedelta(days=20))
    reviews, with_plans = _compose_queries(many)
    assert _compose_queries(few)[1] == with_plans
    assert reviews[many[0].id]["plan"]["currency"] == "VND" and reviews[many[5].id]["plan"] is None
    assert reviews[many[5].id]["spent"] == "1500000"


def test_the_weeks_before_are_read_as_one_group_per_user_not_one_per_category(db):
    """The spending read groups the week itself by category and the four weeks before, in the user's own
    currency, as one group per user (they are shown as totals only); a row in another currency keeps its day."""
    from suggestions.digest.reads import review_spending

    vnd = factories.user("vnd")
    for days, category in ((-3, "groceries"), (-10, "transport"), (-17, "shopping"), (-24, "health")):
        spend(vnd, "100", MONDAY + dt.timedelta(days=days), category, category)
    spend(vnd, "7", MONDAY + dt.timedelta(days=1), "dining", "Tea")
    spend(vnd, "8", MONDAY + dt.timedelta(days=2), "groceries", "Rice")
    factories.rate(MONDAY - dt.timedelta(days=9), "25000")
    factories.txn(vnd, amount="2", currency="USD", category="travel", occurred_on=MONDAY - dt.timedelta(days=8))
    with CaptureQueriesContext(connection) as queries:
        spent = review_spending(currencies={vnd.id: "VND"}, week_start=MONDAY, per_user=3)
    assert spent.weeks[vnd.id] == (Decimal(15), Decimal(100), Decimal(50_100), Decimal(100), Decimal(100))
    assert dict(spent.categories[vnd.id]) == {"dining": Decimal(7), "groceries": Decimal(8)}
    (grouped,) = [q["sql"] for q in queries.captured_queries if "week_category" in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute(grouped)
        rows = cursor.fetchall()
    # This week's two categories, the four weeks before as one group, the dollars on their day.
    assert sorted((category or "", day is not None) for _uid, category, _cur, day, *_sums in rows) == [
        ("", False),
        ("dining", False),
        ("groceries", False),
        ("travel", True),
    ]

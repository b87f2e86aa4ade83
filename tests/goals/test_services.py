import datetime as dt
from decimal import Decimal

import pytest

from goals import selectors, services
from goals.progress import goal_progress, months_between, resolve_deadline
from tests import factories
from zeus.errors import Conflict, NotFound, ValidationFailed
from zeus.money import MAX_AMOUNT

D = dt.date


@pytest.mark.parametrize(
    ("start", "end", "months"),
    [
        (D(2026, 11, 29), D(2026, 12, 1), 1),
        (D(2026, 11, 1), D(2026, 12, 1), 1),
        (D(2026, 11, 1), D(2026, 12, 2), 2),
        (D(2026, 11, 29), D(2026, 11, 29), 0),
        (D(2026, 11, 29), D(2026, 10, 1), 0),
        (D(2026, 1, 31), D(2027, 1, 31), 12),
    ],
)
def test_months_between_counts_a_started_month(start, end, months):
    assert months_between(start, end) == months


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10 years", D(2036, 11, 29)),
        ("18 months", D(2028, 5, 29)),
        ("in 6 tháng", D(2027, 5, 29)),
        ("2 weeks", D(2026, 12, 13)),
        ("30 days", D(2026, 12, 29)),
        ("3 năm", D(2029, 11, 29)),
        ("2030-06-30", D(2030, 6, 30)),
        (D(2030, 1, 1), D(2030, 1, 1)),
    ],
)
def test_resolve_deadline_reads_dates_and_spans(text, expected):
    assert resolve_deadline(text, today=D(2026, 11, 29)) == expected


def test_resolve_deadline_clamps_to_the_end_of_a_short_month():
    assert resolve_deadline("1 month", today=D(2027, 1, 31)) == D(2027, 2, 28)


@pytest.mark.parametrize("text", ["", None, "soon", "10 eons", "2030-13-01", "-5 years", "1000 years"])
def test_resolve_deadline_refuses_the_rest(text):
    with pytest.raises(ValidationFailed):
        resolve_deadline(text, today=D(2026, 11, 29))


def test_goal_progress_on_a_straight_line():
    progress = goal_progress(
        target=Decimal(1200),
        current=Decimal(600),
        currency="USD",
        started_on=D(2026, 1, 1),
        deadline=D(2027, 1, 1),
        today=D(2026, 7, 1),
    )
    assert progress.progress_pct == Decimal("50.0")
    assert progress.monthly_needed == Decimal("100.00")
    assert progress.on_track is True


def test_goal_progress_behind_and_past_the_deadline():
    behind = goal_progress(
        target=Decimal(1200),
        current=Decimal(100),
        currency="VND",
        started_on=D(2026, 1, 1),
        deadline=D(2027, 1, 1),
        today=D(2026, 7, 1),
    )
    assert behind.on_track is False
    assert behind.monthly_needed == Decimal(184)  # 1100 over 6 months, rounded up to the đồng
    late = goal_progress(
        target=Decimal(1000),
        current=Decimal(400),
        currency="VND",
        started_on=D(2025, 1, 1),
        deadline=D(2026, 1, 1),
        today=D(2026, 2, 1),
    )
    assert (late.monthly_needed, late.on_track) == (Decimal(600), False)


@pytest.mark.django_db
def test_goal_create_refuses_a_past_deadline_and_bad_kind(alice):
    with pytest.raises(ValidationFailed):
        services.goal_create(user=alice, name="X", kind="house", target_amount="1tr", deadline="2001-01-01")
    with pytest.raises(ValidationFailed):
        services.goal_create(user=alice, name="X", kind="boat", target_amount="1tr", deadline="5 years")
    with pytest.raises(ValidationFailed):
        services.goal_create(user=alice, name="X\x00", kind="house", target_amount="1tr", deadline="5 years")


@pytest.mark.django_db
def test_goal_contribute_adds_and_marks_achieved(alice):
    goal = factories.goal(alice, target_amount="1000000")
    goal = services.goal_contribute(user=alice, goal_id=goal.id, amount="400k")
    assert (goal.current_amount, goal.status) == (400000, "active")
    goal = services.goal_contribute(user=alice, goal_id=goal.id, amount="600k")
    assert (goal.current_amount, goal.status) == (1000000, "achieved")


@pytest.mark.django_db
def test_goal_contribute_refuses_to_overflow_the_column(alice):
    goal = factories.goal(alice, target_amount=str(MAX_AMOUNT), current_amount=str(MAX_AMOUNT - 1))
    with pytest.raises(ValidationFailed):
        services.goal_contribute(user=alice, goal_id=goal.id, amount="2")
    goal.refresh_from_db()
    assert goal.current_amount == MAX_AMOUNT - 1


@pytest.mark.django_db
def test_goal_services_refuse_another_users_goal(alice, bob):
    goal = factories.goal(bob)
    for call in (
        lambda: services.goal_update(user=alice, goal_id=goal.id, name="X"),
        lambda: services.goal_contribute(user=alice, goal_id=goal.id, amount="1"),
        lambda: services.goal_delete(user=alice, goal_id=goal.id),
        lambda: selectors.goal_get(user=alice, goal_id=goal.id),
    ):
        with pytest.raises(NotFound):
            call()


@pytest.mark.django_db
def test_budget_create_refuses_duplicates_and_income_categories(alice):
    services.budget_create(user=alice, category="dining", amount="1tr")
    with pytest.raises(Conflict):
        services.budget_create(user=alice, category="dining", amount="2tr")
    with pytest.raises(ValidationFailed):
        services.budget_create(user=alice, category="salary", amount="2tr")


@pytest.mark.django_db
def test_budget_statuses_aggregate_once_per_currency(alice, django_assert_max_num_queries):
    today = D(2026, 11, 15)
    factories.budget(alice, category="dining", amount="1000000")
    factories.budget(alice, category="groceries", amount="500000")
    factories.budget(alice, category="travel", amount="100", currency="USD")
    factories.txn(alice, amount="250000", category="dining", occurred_on=today)
    factories.txn(alice, amount="30.5", category="travel", currency="USD", occurred_on=today)
    factories.txn(alice, amount="99999", category="dining", occurred_on=D(2026, 10, 31))
    with django_assert_max_num_queries(3):
        statuses = selectors.budget_statuses(user=alice, month=(2026, 11))
    figures = {s.budget.category: (s.spent, s.remaining) for s in statuses}
    assert figures == {
        "dining": (Decimal(250000), Decimal(750000)),
        "groceries": (Decimal(0), Decimal(500000)),
        "travel": (Decimal("30.50"), Decimal("69.50")),
    }

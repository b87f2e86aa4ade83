import datetime as dt

import pytest
from django.core.management import call_command

from goals.services import goal_create
from suggestions import services
from suggestions.models import Suggestion
from suggestions.services import suggestions_refresh
from suggestions.tasks import refresh_suggestions
from tests import factories

NOW = dt.datetime(2026, 11, 20, 5, 0, tzinfo=dt.UTC)  # the 20th, noon in Saigon


def refresh(user, now=NOW):
    return suggestions_refresh(user=user, now=now)


def active_keys(user) -> list[str]:
    return sorted(Suggestion.objects.filter(user=user, status="active").values_list("dedupe_key", flat=True))


def settled(user):
    """A budget and both kinds of goal: no next best action left to suggest."""
    factories.budget(user, category="groceries", amount=50_000_000)
    factories.goal(user, kind="emergency_fund", name="Rainy day", started_on=dt.date(2026, 11, 20))


def test_a_new_user_is_asked_to_set_a_budget_first(alice):
    assert refresh(alice) == {"created": 1, "updated": 0, "retired": 0}
    (s,) = Suggestion.objects.filter(user=alice)
    assert (s.kind, s.dedupe_key) == ("next_best_action", "next_best_action:create_budget:2026-11")
    assert s.prompt == "Help me set monthly budgets for my biggest spending categories."
    assert s.cta_url == "/chat?prompt=Help%20me%20set%20monthly%20budgets%20for%20my%20biggest%20spending%20categories."


def test_the_next_best_action_moves_on_as_the_user_acts(alice):
    refresh(alice)
    factories.budget(alice, category="dining", amount=50_000_000)
    refresh(alice)
    assert active_keys(alice) == ["next_best_action:create_goal:2026-11"]
    factories.goal(alice, kind="house", started_on=dt.date(2026, 11, 20))
    refresh(alice)
    assert active_keys(alice) == ["next_best_action:emergency_fund:2026-11"]
    factories.goal(alice, kind="emergency_fund", name="Rainy day", started_on=dt.date(2026, 11, 20))
    assert refresh(alice)["retired"] == 1
    assert active_keys(alice) == []


def test_spending_well_ahead_of_last_month_is_watched(alice):
    settled(alice)
    factories.txn(alice, category="dining", amount=1_000_000, occurred_on=dt.date(2026, 10, 15))
    factories.txn(alice, category="dining", amount=9_000_000, occurred_on=dt.date(2026, 10, 25))  # after the 20th
    factories.txn(alice, category="shopping", amount=2_000_000, occurred_on=dt.date(2026, 11, 18))
    factories.txn(alice, category="housing", amount=6_500_000, occurred_on=dt.date(2026, 11, 1))  # essential
    refresh(alice)
    (s,) = Suggestion.objects.filter(user=alice)
    assert s.dedupe_key == "spending_watch:2026-11"
    assert s.title == "Discretionary spending is 100% ahead of last month"
    assert "₫2,000,000" in s.body and "₫1,000,000" in s.body


def test_spending_close_to_last_month_is_not_watched(alice):
    settled(alice)
    factories.txn(alice, category="dining", amount=1_000_000, occurred_on=dt.date(2026, 10, 15))
    factories.txn(alice, category="dining", amount=1_100_000, occurred_on=dt.date(2026, 11, 15))
    refresh(alice)
    assert active_keys(alice) == []


def test_a_budget_on_pace_to_run_out_gets_a_guardrail(alice, bob):
    settled(alice)
    factories.budget(alice, category="dining", amount=2_000_000)
    factories.txn(alice, category="dining", amount=1_500_000, occurred_on=dt.date(2026, 11, 10))
    settled(bob)
    factories.budget(bob, category="dining", amount=2_000_000)
    factories.txn(bob, category="dining", amount=1_000_000, occurred_on=dt.date(2026, 11, 10))
    refresh(alice)
    refresh(bob)
    assert active_keys(alice) == ["budget_guardrail:dining:2026-11"]
    assert "₫2,250,000" in Suggestion.objects.get(user=alice).body  # 1.5M in 20 days → 2.25M in 30
    assert active_keys(bob) == []


def test_a_budget_already_used_up_gets_no_guardrail(alice):
    settled(alice)
    factories.budget(alice, category="dining", amount=2_000_000)
    factories.txn(alice, category="dining", amount=2_100_000, occurred_on=dt.date(2026, 11, 10))
    refresh(alice)
    assert [k for k in active_keys(alice) if k.startswith("budget_guardrail")] == []


def test_a_goal_behind_schedule_is_nudged_with_the_monthly_amount(alice):
    settled(alice)
    behind = factories.goal(
        alice,
        name="Car",
        target_amount=120_000_000,
        current_amount=10_000_000,
        started_on=dt.date(2026, 5, 20),
        deadline=dt.date(2027, 5, 20),
    )
    factories.goal(alice, name="Trip", target_amount=10_000_000, current_amount=9_000_000)
    refresh(alice)
    (s,) = Suggestion.objects.filter(user=alice, kind="goal_nudge")
    assert s.dedupe_key == f"goal_nudge:{behind.id}:2026-11"
    assert s.cta_url == "/plans"
    assert s.payload["monthly_needed"] == "18333334"  # 110M over 6 months, rounded up to the đồng
    assert "₫18,333,334 a month" in s.body


def test_a_refresh_never_stacks_copies_and_updates_figures_in_place(alice):
    settled(alice)
    factories.budget(alice, category="dining", amount=2_000_000)
    factories.txn(alice, category="dining", amount=1_500_000, occurred_on=dt.date(2026, 11, 10))
    refresh(alice)
    first = Suggestion.objects.get(user=alice)
    assert refresh(alice) == {"created": 0, "updated": 0, "retired": 0}
    factories.txn(alice, category="dining", amount=100_000, occurred_on=dt.date(2026, 11, 19))
    assert refresh(alice) == {"created": 0, "updated": 1, "retired": 0}
    again = Suggestion.objects.get(user=alice)
    assert again.id == first.id
    assert again.payload["spent"] == "1600000"


def test_a_rule_that_stops_holding_retires_its_active_suggestion(alice):
    settled(alice)
    factories.budget(alice, category="dining", amount=2_000_000)
    factories.txn(alice, category="dining", amount=1_500_000, occurred_on=dt.date(2026, 11, 10))
    refresh(alice)
    alice.budgets.filter(category="dining").update(amount=9_000_000)
    assert refresh(alice)["retired"] == 1
    assert not Suggestion.objects.filter(user=alice).exists()


def test_last_months_active_suggestions_are_retired(alice):
    refresh(alice, now=NOW - dt.timedelta(days=30))
    assert active_keys(alice) == ["next_best_action:create_budget:2026-10"]
    refresh(alice)
    assert active_keys(alice) == ["next_best_action:create_budget:2026-11"]


def test_a_dismissed_suggestion_stays_dismissed_for_its_period(alice):
    refresh(alice)
    Suggestion.objects.filter(user=alice).update(status="dismissed")
    assert refresh(alice) == {"created": 0, "updated": 0, "retired": 0}
    assert Suggestion.objects.get(user=alice).status == "dismissed"
    refresh(alice, now=NOW + dt.timedelta(days=15))  # December: a new period asks again
    assert active_keys(alice) == ["next_best_action:create_budget:2026-12"]


def test_insights_are_left_alone_by_the_refresh(alice):
    Suggestion.objects.create(user=alice, kind="category_spike", dedupe_key="category_spike:dining:2026-W47", title="x")
    refresh(alice)
    assert Suggestion.objects.filter(user=alice, kind="category_spike").exists()


def test_a_new_goal_refreshes_the_users_suggestions(alice, django_capture_on_commit_callbacks):
    factories.budget(alice, category="dining", amount=50_000_000)
    suggestions_refresh(user=alice)
    assert [k.rsplit(":", 1)[0] for k in active_keys(alice)] == ["next_best_action:create_goal"]

    with django_capture_on_commit_callbacks(execute=True):
        goal_create(user=alice, name="House", kind="house", target_amount="2 tỷ", deadline="10 years")

    assert [k.rsplit(":", 1)[0] for k in active_keys(alice)] == ["next_best_action:emergency_fund"]


def test_a_failing_refresh_never_fails_the_goal(alice, django_capture_on_commit_callbacks, monkeypatch, caplog):
    def broken(**kwargs):
        raise RuntimeError("refresh exploded")

    monkeypatch.setattr(services, "suggestions_refresh_users", broken)
    with django_capture_on_commit_callbacks(execute=True):
        goal = goal_create(user=alice, name="House", kind="house", target_amount="2 tỷ", deadline="10 years")

    assert alice.goals.filter(id=goal.id).exists()
    assert "refreshing suggestions after goal" in caplog.text


def test_a_broker_that_is_down_never_fails_the_goal(alice, django_capture_on_commit_callbacks, monkeypatch):
    def down(**kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(refresh_suggestions, "delay", down)
    with django_capture_on_commit_callbacks(execute=True):
        goal_create(user=alice, name="House", kind="house", target_amount="2 tỷ", deadline="10 years")
    assert alice.goals.count() == 1


def test_one_users_failure_does_not_stop_the_batch(alice, bob, monkeypatch):
    real = services.suggestions_refresh

    def flaky(*, user, now=None):
        if user.username == "alice":
            raise RuntimeError("bad data")
        return real(user=user, now=now)

    monkeypatch.setattr(services, "suggestions_refresh", flaky)
    assert services.suggestions_refresh_users(user_ids=[alice.id, bob.id]) == 1
    assert Suggestion.objects.filter(user=bob).exists()


def test_the_nightly_task_fans_out_over_every_user(alice, bob):
    refresh_suggestions.delay()
    assert Suggestion.objects.filter(user=alice).exists()
    assert Suggestion.objects.filter(user=bob).exists()


def test_the_command_refreshes_one_user(alice, bob):
    call_command("refresh_suggestions", "--user", "bob")
    assert not Suggestion.objects.filter(user=alice).exists()
    assert Suggestion.objects.filter(user=bob).exists()


@pytest.mark.parametrize("command", ["refresh_suggestions", "generate_insights"])
def test_the_commands_run_for_everyone(alice, bob, command):
    call_command(command)


def test_a_refresh_costs_the_same_few_queries_however_many_budgets_and_goals(alice, django_assert_max_num_queries):
    for category in ("dining", "groceries", "transport", "shopping", "travel", "gifts"):
        factories.budget(alice, category=category, amount=2_000_000)
        factories.txn(alice, category=category, amount=1_500_000, occurred_on=dt.date(2026, 11, 10))
    for n in range(5):
        factories.goal(alice, name=f"Goal {n}", current_amount=0, started_on=dt.date(2026, 5, 20))
    with django_assert_max_num_queries(16):
        refresh(alice)
    assert Suggestion.objects.filter(user=alice).count() == 6 + 5 + 1  # guardrails, nudges, emergency fund

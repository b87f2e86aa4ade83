"""Recurring series as stored: the nightly detection, its insights, the REST API and the command."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from plans.services import plan_activate, plan_create
from suggestions.models import RecurringSeries, Suggestion
from suggestions.recurring.detection import add_months
from suggestions.recurring.job import recurring_detect
from tests import factories
from tests.suggestions.factories import NOW, TODAY, steady_life

FIELDS = {"id", "merchant", "kind", "amount", "currency", "interval", "last_on", "next_on", "category", "status"}


def monthly(user, description, category, amounts, *, first: dt.date, direction="expense"):
    for k, amount in enumerate(amounts):
        factories.txn(
            user,
            description=description,
            category=category,
            amount=amount,
            direction=direction,
            occurred_on=add_months(first, k),
        )


def life(user):
    """An ordinary quarter plus a subscription that rose, a gym that stopped, rent due in two days, salary."""
    steady_life(user)
    monthly(user, "Netflix", "subscriptions", [260_000, 260_000, 260_000, 300_000], first=dt.date(2026, 8, 12))
    monthly(user, "California Fitness", "personal_care", [500_000] * 3, first=dt.date(2026, 7, 20))
    monthly(user, "Landlord", "housing", [6_500_000] * 3, first=dt.date(2026, 9, 5))
    monthly(user, "ACME Corp", "salary", [25_000_000] * 3, first=dt.date(2026, 9, 25), direction="income")


def run(user=None, now=NOW):
    return recurring_detect(user_ids=[user.id] if user else None, now=now)


def series(user) -> dict[str, RecurringSeries]:
    return {s.merchant: s for s in RecurringSeries.objects.filter(user=user)}


def test_the_nightly_detection_stores_each_series_and_nothing_from_everyday_spending(alice):
    life(alice)
    result = run(alice)
    found = series(alice)
    assert set(found) == {"Netflix", "California Fitness", "Landlord", "ACME Corp"}
    assert (result.series, result.created, result.ended) == (4, 4, 1)
    netflix = found["Netflix"]
    assert (netflix.kind, netflix.interval, netflix.amount, netflix.status) == (
        "subscription", "monthly", Decimal(300_000), "active"
    )  # fmt: skip
    assert (netflix.last_on, netflix.next_on) == (dt.date(2026, 11, 12), dt.date(2026, 12, 12))
    assert found["Landlord"].kind == "bill" and found["ACME Corp"].kind == "income"
    assert found["California Fitness"].status == "ended"


def test_a_rise_raises_one_price_change_insight_and_a_rerun_nothing(alice):
    life(alice)
    assert run(alice).insights == 1
    (insight,) = Suggestion.objects.filter(user=alice, kind="price_change")
    assert insight.title == "Netflix went up: ₫260,000 → ₫300,000"  # alice reads English
    assert insight.payload["previous_amount"] == "260000" and insight.payload["amount"] == "300000"
    assert alice.notifications.filter(kind="insight", dedupe_key=insight.dedupe_key).count() == 1
    ids = {s.id for s in series(alice).values()}
    again = run(alice)
    assert (again.created, again.insights, again.ended) == (0, 0, 0)
    assert {s.id for s in series(alice).values()} == ids
    assert Suggestion.objects.filter(user=alice, kind="price_change").count() == 1


def test_an_upcoming_bill_larger_than_the_plans_safe_to_spend_is_a_bill_due_insight(alice):
    life(alice)
    plan = plan_create(user=alice, month="2026-12", expected_income="10000000", today=TODAY)
    plan_activate(user=alice, plan_id=plan.id, today=TODAY)
    factories.txn(alice, category="shopping", description="Uniqlo", amount=2_500_000, occurred_on=TODAY)
    run(alice)
    (due,) = Suggestion.objects.filter(user=alice, kind="bill_due")
    assert due.title.startswith("Landlord") and "in 2 days" in due.title
    assert due.payload["due_on"] == "2026-12-05"


def test_recurring_insights_are_written_in_their_readers_language(alice):
    alice.profile.language = "vi"
    alice.profile.save(update_fields=["language"])
    life(alice)
    plan = plan_create(user=alice, month="2026-12", expected_income="10000000", today=TODAY)
    plan_activate(user=alice, plan_id=plan.id, today=TODAY)
    factories.txn(alice, category="shopping", description="Uniqlo", amount=2_500_000, occurred_on=TODAY)
    run(alice)
    rise = Suggestion.objects.get(user=alice, kind="price_change")
    due = Suggestion.objects.get(user=alice, kind="bill_due")
    assert rise.title == "Netflix tăng giá: 260.000\xa0₫ → 300.000\xa0₫"
    assert due.title.startswith("Landlord") and "đến hạn sau 2 ngày" in due.title
    spent = sum(t.amount for t in alice.transactions.filter(occurred_on__month=12, category__in=["dining", "shopping"]))
    assert Decimal(due.payload["safe_left"]) == Decimal(3_000_000) - spent
    assert run(alice).insights == 0


def test_no_plan_or_a_plan_that_covers_the_bill_raises_no_bill_due(alice, bob):
    life(alice)
    life(bob)
    plan = plan_create(user=bob, month="2026-12", expected_income="50000000", today=TODAY)
    plan_activate(user=bob, plan_id=plan.id, today=TODAY)
    recurring_detect(user_ids=[alice.id, bob.id], now=NOW)
    assert not Suggestion.objects.filter(kind="bill_due").exists()


def test_a_dismissed_series_stays_dismissed_and_raises_nothing(alice, alice_api):
    life(alice)
    run(alice)
    netflix = series(alice)["Netflix"]
    assert alice_api.post(f"/api/v1/recurring/{netflix.id}/dismiss").json()["status"] == "dismissed"
    factories.txn(
        alice, description="Netflix", category="subscriptions", amount=300_000, occurred_on=dt.date(2026, 12, 12)
    )
    run(alice, now=NOW + dt.timedelta(days=10))
    netflix.refresh_from_db()
    assert netflix.status == "dismissed" and netflix.last_on == dt.date(2026, 12, 12)
    assert Suggestion.objects.filter(user=alice, kind="price_change").count() == 1


def test_a_series_that_stops_is_marked_ended_once_its_slack_passes(alice):
    monthly(alice, "Spotify", "subscriptions", [59_000] * 3, first=dt.date(2026, 9, 1))
    run(alice, now=dt.datetime(2026, 12, 7, 5, tzinfo=dt.UTC))
    assert series(alice)["Spotify"].status == "active"
    result = run(alice, now=dt.datetime(2026, 12, 9, 5, tzinfo=dt.UTC))
    assert series(alice)["Spotify"].status == "ended" and result.ended == 1


def test_the_list_has_the_documented_fields_and_filters(alice, alice_api, bob):
    life(alice)
    life(bob)
    recurring_detect(now=NOW)
    body = alice_api.get("/api/v1/recurring").json()
    assert [r["merchant"] for r in body["results"]] == ["Landlord", "Netflix", "ACME Corp"]
    assert set(body["results"][0]) == FIELDS
    assert body["results"][1]["amount"] == "300000" and body["results"][1]["currency"] == "VND"
    every = alice_api.get("/api/v1/recurring?status=all").json()["results"]
    assert {r["merchant"] for r in every} == {"Landlord", "Netflix", "ACME Corp", "California Fitness"}
    ended = alice_api.get("/api/v1/recurring?status=ended").json()["results"]
    assert [r["merchant"] for r in ended] == ["California Fitness"]


def test_due_within_days_counts_from_the_users_today(alice, alice_api, monkeypatch):
    life(alice)
    run(alice)
    monkeypatch.setattr("suggestions.recurring.selectors.user_today", lambda user: TODAY)
    soon = alice_api.get("/api/v1/recurring?due_within_days=7").json()["results"]
    assert [r["merchant"] for r in soon] == ["Landlord"]
    assert len(alice_api.get("/api/v1/recurring?due_within_days=9").json()["results"]) == 2


@pytest.mark.parametrize(
    "query", ["status=paused", "due_within_days=soon", "due_within_days=-1", "due_within_days=999"]
)
def test_bad_filters_are_a_400(alice_api, query):
    response = alice_api.get(f"/api/v1/recurring?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_dismissing_another_users_series_is_a_404_and_changes_nothing(alice, bob_api):
    life(alice)
    run(alice)
    netflix = series(alice)["Netflix"]
    response = bob_api.post(f"/api/v1/recurring/{netflix.id}/dismiss")
    assert response.status_code == 404 and response.json()["error"]["code"] == "NOT_FOUND"
    netflix.refresh_from_db()
    assert netflix.status == "active"
    assert bob_api.post("/api/v1/recurring/999999/dismiss").status_code == 404


def test_it_needs_a_login(anon_api):
    assert anon_api.get("/api/v1/recurring").status_code == 401


def _queries_for(n: int, prefix: str) -> tuple[int, int]:
    users = [factories.user(f"{prefix}{k}") for k in range(n)]
    for user in users:
        monthly(user, "Spotify", "subscriptions", [59_000] * 3, first=dt.date(2026, 9, 1))
        monthly(user, "Landlord", "housing", [6_500_000] * 3, first=dt.date(2026, 9, 25))
    ids = [u.id for u in users]
    with CaptureQueriesContext(connection) as first:
        recurring_detect(user_ids=ids, now=NOW)
    with CaptureQueriesContext(connection) as again:
        recurring_detect(user_ids=ids, now=NOW)
    return len(first), len(again)


def test_queries_per_batch_do_not_grow_with_users(db):
    assert _queries_for(2, "a") == _queries_for(12, "b")
    assert _queries_for(3, "c")[0] <= 8


def test_the_command_runs_one_user(alice, bob):
    life(alice)
    life(bob)
    call_command("detect_recurring", "--user", "alice")
    assert RecurringSeries.objects.filter(user=alice).count() == 4
    assert not RecurringSeries.objects.filter(user=bob).exists()


def test_an_opted_in_user_gets_the_price_change_by_mail(alice, settings, django_capture_on_commit_callbacks):
    from tests.mail import SMTPServer, use_smtp
    from zeus.services import profile_update

    server = SMTPServer().start()
    use_smtp(settings, server.port)
    try:
        alice.email = "alice@example.com"
        alice.save(update_fields=["email"])
        profile_update(user=alice, email_notifications={"insight": True})
        life(alice)
        with django_capture_on_commit_callbacks(execute=True):
            run(alice)
        (message,) = server.messages
        assert message["Subject"].strip().startswith("Netflix went up")
    finally:
        server.stop()

"""The jobs under real concurrency: two workers on two PostgreSQL connections, and a real Celery worker."""

import datetime as dt
import time

import pytest

from plans import jobs
from plans.models import MonthlyPlan, ReminderLog
from tests import factories
from tests.plans import factories as plan_factories
from tests.race import at_once
from zeus.models import Notification

UTC = dt.UTC


def _plans(count: int) -> None:
    for index in range(count):
        owner = factories.user(f"c{index}", timezone="Asia/Ho_Chi_Minh" if index % 2 else "Asia/Bangkok")
        plan_factories.plan(owner, active=True, reminder_time="20:00")


def _race(job) -> list:
    """Runs `job` in two threads at once, each on its own database connection."""
    return at_once(job, job)


@pytest.mark.django_db(transaction=True)
def test_two_workers_send_each_reminder_once(clock):
    _plans(40)
    at = dt.datetime(2026, 11, 10, 13, 30, tzinfo=UTC)
    results = _race(lambda: jobs.reminders_send_due(now=at, batch_size=3))
    assert sum(r.reminders for r in results) == 40
    assert Notification.objects.filter(kind="plan_reminder").count() == 40
    assert ReminderLog.objects.count() == 40
    assert jobs.reminders_send_due(now=at).reminders == 0


@pytest.mark.django_db(transaction=True)
def test_two_workers_finalize_each_plan_once(clock):
    _plans(30)
    at = dt.datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
    results = _race(lambda: jobs.plans_finalize_ended(now=at, batch_size=4))
    assert sum(r.summaries for r in results) == 30
    assert Notification.objects.filter(kind="month_end_summary").count() == 30
    assert MonthlyPlan.objects.filter(status="completed", summary__isnull=False).count() == 30


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_runs_the_reminder_task_from_redis(clock):
    from celery.contrib.testing.worker import start_worker

    from plans.tasks import send_due_reminders
    from zeus.celery import app

    _plans(3)
    clock.set("2026-11-10T13:30:00+00:00")
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
            send_due_reminders.delay()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and Notification.objects.count() < 3:
                time.sleep(0.2)
    finally:
        app.conf.task_always_eager = eager
    assert Notification.objects.filter(kind="plan_reminder").count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_posts_with_one_idempotency_key_create_one_plan(clock, alice):
    from tests.conftest import token_client

    body = {
        "month": "2026-11",
        "expected_income": "25000000",
        "fixed_expenses": [{"name": "Rent", "amount": "6500000", "category": "housing"}],
    }

    def post():
        return token_client(alice).post("/api/v1/plans", body, format="json", HTTP_IDEMPOTENCY_KEY="same")

    responses = _race(post)
    assert [r.status_code for r in responses] == [201, 201]
    assert responses[0].json() == responses[1].json()
    assert MonthlyPlan.objects.count() == 1

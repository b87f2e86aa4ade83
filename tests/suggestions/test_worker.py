import pytest

from suggestions.models import Suggestion
from suggestions.tasks import generate_insights, refresh_suggestions
from tests import factories
from tests.processes import wait_for
from zeus.timeutil import user_today


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_the_nightly_tasks_fan_out_and_run_on_a_real_worker():
    from celery.contrib.testing.worker import start_worker

    from zeus.celery import app

    alice = factories.user("alice")
    for _ in range(2):
        factories.txn(alice, category="entertainment", description="CGV Cinemas", amount=240_000,
                      occurred_on=user_today(alice))  # fmt: skip
    app.conf.task_always_eager = False
    try:
        with start_worker(app, perform_ping_check=False, shutdown_timeout=15):
            generate_insights.delay()
            refresh_suggestions.delay()
            assert wait_for(lambda: Suggestion.objects.filter(user=alice, kind="duplicate_charge").exists())
            assert wait_for(lambda: Suggestion.objects.filter(user=alice, kind="next_best_action").exists())
    finally:
        app.conf.task_always_eager = True


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_the_recurring_detection_fans_out_and_runs_on_a_real_worker():
    from celery.contrib.testing.worker import start_worker

    from suggestions.models import RecurringSeries
    from suggestions.recurring.detection import add_months
    from suggestions.tasks import detect_recurring
    from zeus.celery import app

    alice = factories.user("alice")
    today = user_today(alice)
    for k in range(1, 4):
        factories.txn(alice, category="subscriptions", description="Spotify", amount=59_000,
                      occurred_on=add_months(today, -k))  # fmt: skip
    app.conf.task_always_eager = False
    try:
        with start_worker(app, perform_ping_check=False, shutdown_timeout=15):
            detect_recurring.delay()
            assert wait_for(lambda: RecurringSeries.objects.filter(user=alice, merchant="Spotify").exists())
    finally:
        app.conf.task_always_eager = True

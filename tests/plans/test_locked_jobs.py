"""A user whose erasure is pending is locked: the plan jobs neither remind nor sum up their month, until the
erasure is cancelled (zeus/account_data/unlocked.py)."""

import datetime as dt

import pytest

from plans import jobs
from plans.models import MonthlyPlan
from tests import factories
from tests.plans import factories as plan_factories
from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request
from zeus.models import Notification

pytestmark = pytest.mark.django_db

REMINDER_TIME = dt.datetime(2026, 11, 10, 13, 0, tzinfo=dt.UTC)  # 20:00 in Saigon
MONTH_ENDED = dt.datetime(2026, 11, 30, 17, 5, tzinfo=dt.UTC)  # 00:05 on 1 December in Saigon


def _two_planners():
    kept = factories.user("kept")
    leaving = factories.user("leaving")
    for owner in (kept, leaving):
        plan_factories.plan(owner, month="2026-11", active=True, reminder_time="20:00")
    account_erasure_request(user=leaving, now=REMINDER_TIME - dt.timedelta(days=1))
    return kept, leaving


def test_no_plan_reminder_for_a_locked_user_until_the_erasure_is_cancelled(clock):
    kept, leaving = _two_planners()
    assert jobs.reminders_send_due(now=REMINDER_TIME).reminders == 1
    assert Notification.objects.filter(user=kept, kind="plan_reminder").count() == 1
    assert not Notification.objects.filter(user=leaving).exists()
    assert account_erasure_cancel(user=leaving)
    assert jobs.reminders_send_due(now=REMINDER_TIME).reminders == 1
    assert Notification.objects.filter(user=leaving, kind="plan_reminder").count() == 1


def test_no_month_end_for_a_locked_user_until_the_erasure_is_cancelled(clock):
    kept, leaving = _two_planners()
    assert jobs.plans_finalize_ended(now=MONTH_ENDED).summaries == 1
    assert MonthlyPlan.objects.get(user=kept).status == "completed"
    assert MonthlyPlan.objects.get(user=leaving).status == "active"
    assert not Notification.objects.filter(user=leaving).exists()
    account_erasure_cancel(user=leaving)
    assert jobs.plans_finalize_ended(now=MONTH_ENDED).summaries == 1
    assert MonthlyPlan.objects.get(user=leaving).status == "completed"

"""A user whose erasure is pending is locked: no insight, no recurring series or its notices, no weekly review
and no refreshed suggestion is made for them, until the erasure is cancelled (zeus/account_data/unlocked.py).
Each job is run for every user, as beat runs it."""

import datetime as dt

import pytest

from suggestions.batches import user_batches
from suggestions.digest.job import weekly_digest_send
from suggestions.insights.job import insights_generate
from suggestions.models import RecurringSeries, Suggestion, WeeklyDigest
from suggestions.recurring.detection import add_months
from suggestions.recurring.job import recurring_detect
from suggestions.services import suggestions_refresh_users
from tests import factories
from tests.suggestions.factories import NOW, steady_life, weekly
from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request
from zeus.models import Notification

pytestmark = pytest.mark.django_db

SUNDAY_9_SAIGON = dt.datetime(2026, 11, 29, 2, 0, tzinfo=dt.UTC)


def _lock(user):
    account_erasure_request(user=user, now=NOW - dt.timedelta(days=1))


def test_the_job_batches_leave_out_a_locked_user_and_take_them_back_on_cancel(alice, bob):
    _lock(bob)
    assert [u.id for batch in user_batches() for u in batch] == [alice.id]
    assert [u.id for batch in user_batches(user_ids=[alice.id, bob.id]) for u in batch] == [alice.id]
    assert suggestions_refresh_users(user_ids=[alice.id, bob.id]) == 1
    account_erasure_cancel(user=bob)
    assert sorted(u.id for batch in user_batches() for u in batch) == sorted([alice.id, bob.id])


def test_no_insight_for_a_locked_user_until_the_erasure_is_cancelled(alice, bob):
    for owner in (alice, bob):
        steady_life(owner)
        weekly(owner, category="shopping", amounts=[7_500_000, *[200_000, 350_000, 150_000, 300_000] * 3])
    _lock(bob)
    assert insights_generate(now=NOW) == 1
    assert not Suggestion.objects.filter(user=bob).exists() and not Notification.objects.filter(user=bob).exists()
    account_erasure_cancel(user=bob)
    assert insights_generate(now=NOW) == 1
    assert Notification.objects.filter(user=bob, kind="insight").count() == 1


def test_no_recurring_detection_for_a_locked_user_until_the_erasure_is_cancelled(alice, bob):
    for owner in (alice, bob):
        for k, amount in enumerate([260_000, 260_000, 260_000, 300_000]):  # a subscription that rose
            factories.txn(
                owner, description="Netflix", category="subscriptions", amount=amount,
                occurred_on=add_months(dt.date(2026, 8, 12), k),
            )  # fmt: skip
    _lock(bob)
    recurring_detect(now=NOW)
    assert RecurringSeries.objects.filter(user=alice).count() == 1
    assert not RecurringSeries.objects.filter(user=bob).exists() and not Notification.objects.filter(user=bob).exists()
    account_erasure_cancel(user=bob)
    recurring_detect(now=NOW)
    assert RecurringSeries.objects.filter(user=bob).count() == 1


def test_no_weekly_review_for_a_locked_user_until_the_erasure_is_cancelled(alice, bob):
    for owner in (alice, bob):
        factories.txn(owner, amount=300_000, occurred_on=dt.date(2026, 11, 24), category="dining")
    _lock(bob)
    assert weekly_digest_send(now=SUNDAY_9_SAIGON) == 1
    assert not WeeklyDigest.objects.filter(user=bob).exists() and not Notification.objects.filter(user=bob).exists()
    account_erasure_cancel(user=bob)
    assert weekly_digest_send(now=SUNDAY_9_SAIGON) == 1
    assert Notification.objects.filter(user=bob, kind="weekly_digest").count() == 1

"""The weekly review's sending: once per user and ISO week, on Sunday from 09:00 in their timezone; the inbox
in the reader's language, the live push and the mail; two workers at once; the command."""

import datetime as dt

import pytest
from django.core.management import CommandError, call_command

from plans.services import plan_activate, plan_create
from suggestions.batches import user_batches
from suggestions.digest.job import weekly_digest_send
from suggestions.models import WeeklyDigest
from tests import factories
from tests.race import at_once
from tests.suggestions.digest_week import MONDAY, SUNDAY_9_SAIGON, WEEK, netflix_due, ordinary_month, review
from tests.suggestions.factories import suggestion
from zeus.models import Notification


def test_it_is_sent_on_sunday_from_nine_in_the_users_timezone_once(alice):
    ordinary_month(alice)
    assert weekly_digest_send(now=SUNDAY_9_SAIGON - dt.timedelta(minutes=1)) == 0
    assert weekly_digest_send(now=SUNDAY_9_SAIGON - dt.timedelta(days=1)) == 0
    assert weekly_digest_send(now=SUNDAY_9_SAIGON) == 1
    assert weekly_digest_send(now=SUNDAY_9_SAIGON + dt.timedelta(hours=1)) == 0
    (note,) = Notification.objects.filter(user=alice, kind="weekly_digest")
    assert note.cta_url == f"/digest/{WEEK}"
    assert note.title == "Week 48: ₫1,500,000 spent"  # money in the reader's locale (CLDR)
    assert "50% more than your average" in note.body


def test_each_timezone_gets_it_at_its_own_nine(alice, bob):
    factories.user("paris", timezone="Europe/Paris")
    assert weekly_digest_send(now=SUNDAY_9_SAIGON) == 2  # alice and bob, Saigon
    paris_nine = dt.datetime(2026, 11, 29, 8, 0, tzinfo=dt.UTC)
    assert weekly_digest_send(now=paris_nine - dt.timedelta(hours=1)) == 0
    assert weekly_digest_send(now=paris_nine) == 1
    assert WeeklyDigest.objects.filter(iso_week=WEEK).count() == 3


def test_it_is_pushed_live_and_mailed_to_those_who_opted_in(alice, bob, settings, django_capture_on_commit_callbacks):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from tests.mail import SMTPServer, use_smtp
    from zeus.live import user_group
    from zeus.services import profile_update

    server = SMTPServer().start()
    use_smtp(settings, server.port)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(alice.id), channel)
    try:
        for user, wants in ((alice, True), (bob, False)):
            user.email = f"{user.username}@example.com"
            user.save(update_fields=["email"])
            profile_update(user=user, email_notifications={"weekly_digest": wants})
        ordinary_month(alice)
        with django_capture_on_commit_callbacks(execute=True):
            assert weekly_digest_send(now=SUNDAY_9_SAIGON) == 2
        message = async_to_sync(layer.receive)(channel)
        assert message["notification"]["kind"] == "weekly_digest"
        (mail,) = server.messages
        assert mail["To"] == "alice@example.com"
        assert mail["Subject"].strip().startswith("Week 48: ")
        assert "/digest/2026-W48" in mail.get_body(("plain",)).get_content()
    finally:
        async_to_sync(layer.group_discard)(user_group(alice.id), channel)
        server.stop()


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_one_review():
    users = [factories.user(f"w{k}") for k in range(5)]

    def worker():
        return weekly_digest_send(now=SUNDAY_9_SAIGON)

    results = at_once(worker, worker)
    assert sum(results) == 5
    assert Notification.objects.filter(kind="weekly_digest").count() == 5
    assert WeeklyDigest.objects.count() == len(users)


def test_the_command_runs_one_user_at_an_instant(alice, bob):
    call_command("send_weekly_digest", "--user", "alice", "--now", "2026-11-29T09:30:00+07:00")
    assert WeeklyDigest.objects.filter(user=alice).exists() and not WeeklyDigest.objects.filter(user=bob).exists()
    with pytest.raises(CommandError):
        call_command("send_weekly_digest", "--now", "2026-11-29T09:30:00")
    with pytest.raises(CommandError):
        call_command("send_weekly_digest", "--now", "sunday")


def test_a_batchs_inbox_texts_are_the_per_user_path_s_word_for_word(db):
    """The batch writes the titles and bodies through digest.texts (one override per language, each
    sentence looked up once): the stored reviews and the inbox rows must be what the previous path wrote,
    one translation.override and digest.title/body per user, in Vietnamese and in English alike."""
    from django.utils import translation

    from goals.services import goal_create
    from suggestions.digest import compose, texts

    users = [factories.user(f"t{k}", language=("vi", "en")[k % 2]) for k in range(6)]
    for k, user in enumerate(users):
        if k != 5:
            ordinary_month(user)  # the last one spent nothing: the shortest body
        if k % 3 == 0:
            goal_create(user=user, name=f"Fund {k}", kind="emergency_fund", target_amount="10000000",
                        current_amount="2500000", deadline=dt.date(2027, 11, 1))  # fmt: skip
        if k in (1, 2):
            netflix_due(user)
            suggestion(user, kind="price_change", title="Netflix went up")
    plan = plan_create(user=users[1], month="2026-11", expected_income="20000000", today=MONDAY)
    plan_activate(user=users[1], plan_id=plan.id, today=MONDAY)
    assert weekly_digest_send(user_ids=[u.id for u in users], now=SUNDAY_9_SAIGON) == len(users)
    for user in users:
        payload = review(user).payload
        assert (
            payload
            == compose.compose(
                [b for batch in user_batches(user_ids=[user.id]) for b in batch],
                start=MONDAY,
                now=SUNDAY_9_SAIGON,
            )[user.id]
        )
        (note,) = Notification.objects.filter(user=user, kind="weekly_digest")
        with translation.override(user.profile.language):
            assert (note.title, note.body) == (texts.title(payload)[:200], texts.body(payload))
    vi, en = (Notification.objects.get(user=users[k], kind="weekly_digest") for k in (0, 1))
    assert en.title == "Week 48: ₫1,500,000 spent"
    assert vi.title == "Tuần 48: đã chi 1.500.000\xa0₫"  # in Vietnamese

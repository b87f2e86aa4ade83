"""Mail of notifications through a real SMTP server on loopback: opted in only, HTML and text, the
unsubscribe link and headers, a server down then back (no loss, no double send), two workers at once."""

import datetime as dt
from urllib.parse import urlparse

import pytest
from django.utils import timezone, translation

from tests import factories
from tests.mail import SMTPServer, use_smtp
from tests.race import at_once
from zeus.mail import KIND_LABELS, mail_deliver, mail_sweep, read_unsubscribe_token, unsubscribe_path
from zeus.models import MailDelivery, Notification
from zeus.services import NotificationDraft, notification_create, notification_create_many, profile_update


@pytest.fixture
def smtp(settings):
    server = SMTPServer().start()
    use_smtp(settings, server.port)
    yield server
    server.stop()


def opted_in(name="carol", **kinds):
    user = factories.user(name, language="vi")
    user.email = f"{name}@example.com"
    user.save(update_fields=["email"])
    profile_update(user=user, email_notifications=kinds or {"insight": True})
    return user


def notify(user, kind="insight", title="Netflix went up", body="260,000 ₫ → 300,000 ₫", key=None):
    return notification_create(
        user=user, kind=kind, title=title, body=body, cta_url="/chat?prompt=Netflix", dedupe_key=key
    )


def parts(message):
    return {part.get_content_type(): part.get_content() for part in message.walk() if not part.is_multipart()}


def test_an_opted_in_user_gets_an_html_and_text_mail_with_a_one_click_unsubscribe(
    db, smtp, django_capture_on_commit_callbacks
):
    carol = opted_in()
    with django_capture_on_commit_callbacks(execute=True):
        note = notify(carol)
    (message,) = smtp.messages
    assert message["To"] == "carol@example.com"
    assert message["Subject"].startswith("Netflix went up")
    body = parts(message)
    assert "260,000 ₫ → 300,000 ₫" in body["text/plain"]
    assert "260,000 ₫ → 300,000 ₫" in body["text/html"] and '<html lang="vi">' in body["text/html"]
    assert "http://127.0.0.1:8000/chat?prompt=Netflix" in body["text/plain"]
    link = message["List-Unsubscribe"].strip().strip("<>")
    # The token is signed with the second it was made in: read back, not compared with one made later.
    prefix = f"http://127.0.0.1:8000/unsubscribe/{carol.id}/"
    assert link.startswith(prefix)
    assert read_unsubscribe_token(user_id=carol.id, token=link.removeprefix(prefix)) == "insight"
    assert link in body["text/plain"] and link in body["text/html"]
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    delivery = MailDelivery.objects.get(notification=note)
    assert (delivery.status, delivery.attempts) == ("sent", 1)


def test_nobody_gets_mail_they_did_not_ask_for(db, smtp, django_capture_on_commit_callbacks):
    dave = factories.user("dave", language="vi")
    dave.email = "dave@example.com"
    dave.save()
    carol = opted_in(plan_reminder=True)  # reminders only
    nobody = opted_in("erin", insight=True)
    nobody.email = ""
    nobody.save()
    with django_capture_on_commit_callbacks(execute=True):
        for user in (dave, carol, nobody):
            notify(user)
        notify(carol, kind="month_end_summary")  # never mailed
    assert smtp.messages == []
    assert not MailDelivery.objects.exists()
    assert Notification.objects.count() == 4


def test_a_server_down_loses_nothing_and_sends_once_when_it_is_back(db, smtp, django_capture_on_commit_callbacks):
    carol = opted_in()
    smtp.stop()
    with django_capture_on_commit_callbacks(execute=True):
        note = notify(carol)
    assert Notification.objects.filter(id=note.id).exists()
    delivery = MailDelivery.objects.get(notification=note)
    assert (delivery.status, delivery.attempts) == ("pending", 1) and "Error" in delivery.last_error
    assert mail_sweep(now=timezone.now() + dt.timedelta(minutes=5)) == {"sent": 0, "skipped": 0, "failed": 1}

    smtp.start()
    later = timezone.now() + dt.timedelta(hours=2)
    assert mail_sweep(now=later) == {"sent": 1, "skipped": 0, "failed": 0}
    assert mail_sweep(now=later + dt.timedelta(hours=2))["sent"] == 0
    assert mail_deliver(note.id) == "skipped"
    assert len(smtp.messages) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 3)


def test_a_dedupe_key_seen_again_queues_no_second_mail(db, smtp, django_capture_on_commit_callbacks):
    carol = opted_in()
    with django_capture_on_commit_callbacks(execute=True):
        assert notify(carol, key="price_change:1:2026-11-12") is not None
        assert notify(carol, key="price_change:1:2026-11-12") is None
    assert len(smtp.messages) == 1


def test_a_batch_of_reminders_mails_only_those_who_opted_in(db, smtp, django_capture_on_commit_callbacks):
    carol = opted_in(plan_reminder=True)
    frank = opted_in("frank", insight=True)
    nomail = opted_in("nomail", plan_reminder=True)
    nomail.email = ""
    nomail.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        notification_create_many(
            [
                NotificationDraft(user_id=u.id, kind="plan_reminder", title="Today's guide: 180,000 ₫")
                for u in (carol, frank, nomail)
            ]
        )
    assert [m["To"] for m in smtp.messages] == ["carol@example.com"]


def test_a_batch_of_two_kinds_mails_each_user_only_the_kinds_they_chose(db, smtp, django_capture_on_commit_callbacks):
    carol = opted_in(plan_reminder=True, insight=False)
    frank = opted_in("frank", insight=True)
    drafts = [
        NotificationDraft(user_id=u.id, kind=kind, title=f"{kind} for {u.username}")
        for u in (carol, frank)
        for kind in ("plan_reminder", "insight")
    ]
    with django_capture_on_commit_callbacks(execute=True):
        notification_create_many(drafts)
    assert sorted((m["To"], m["X-Zeus-Notification"]) for m in smtp.messages) == sorted(
        (d.notification.user.email, str(d.notification_id))
        for d in MailDelivery.objects.select_related("notification__user")
    )
    assert sorted(MailDelivery.objects.values_list("notification__user__username", "notification__kind")) == [
        ("carol", "plan_reminder"),
        ("frank", "insight"),
    ]


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_it_once(settings):
    server = SMTPServer(delay=0.5).start()
    use_smtp(settings, server.port)
    try:
        carol = opted_in()
        settings.CELERY_TASK_ALWAYS_EAGER = True
        # Recorded without running the task: the two "workers" below race for it.
        note = Notification.objects.create(user=carol, kind="insight", title="Twice?")
        MailDelivery.objects.create(notification=note, to=carol.email, next_attempt_at=timezone.now())

        def worker():
            return mail_deliver(note.id)

        results = at_once(worker, worker)
        assert sorted(results) == ["sent", "skipped"]
        assert len(server.messages) == 1
    finally:
        server.stop()


# Preferences


def test_the_profile_has_all_three_preferences_off_by_default(alice_api):
    body = alice_api.get("/api/v1/profile").json()
    assert body["email_notifications"] == {"plan_reminder": False, "insight": False, "weekly_digest": False}


def test_a_patch_changes_only_the_kinds_it_names(alice_api):
    alice_api.patch("/api/v1/profile", {"email_notifications": {"weekly_digest": True}}, format="json")
    body = alice_api.patch("/api/v1/profile", {"email_notifications": {"insight": True}}, format="json").json()
    assert body["email_notifications"] == {"plan_reminder": False, "insight": True, "weekly_digest": True}


@pytest.mark.parametrize(
    "value",
    [{"newsletter": True}, {"insight": "yes"}, {"insight": 1}, ["insight"], "insight", {"insight": None}],
)
def test_bad_preferences_are_a_400_and_change_nothing(alice, alice_api, value):
    response = alice_api.patch("/api/v1/profile", {"email_notifications": value}, format="json")
    assert response.status_code == 400
    assert "email_notifications" in response.json()["error"]["fields"]
    alice.profile.refresh_from_db()
    assert not any(alice.profile.email_notifications.values())


def test_the_settings_page_saves_the_preferences(alice, client):
    client.force_login(alice)
    assert client.get("/settings/notifications/").status_code == 200
    response = client.post("/settings/notifications", {"insight": "on", "weekly_digest": "on"})
    assert response.status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.email_notifications == {"plan_reminder": False, "insight": True, "weekly_digest": True}
    page = client.get("/settings/notifications").content.decode()
    assert 'name="insight" checked' in page or 'checked name="insight"' in page or "checked" in page


def test_the_settings_page_needs_a_login(client):
    assert client.get("/settings/notifications").status_code == 302


# Unsubscribe


def test_get_shows_and_post_applies_without_a_login(db, client):
    carol = opted_in(insight=True, weekly_digest=True)
    path = unsubscribe_path(user_id=carol.id, kind="insight")
    page = client.get(path)
    # In the reader's language (Vietnamese here), whatever the browser that opened the link prefers.
    with translation.override(carol.profile.language):
        label = str(KIND_LABELS["insight"])
    assert page.status_code == 200 and label in page.content.decode()
    assert f'lang="{carol.profile.language}"' in page.content.decode()
    carol.profile.refresh_from_db()
    assert carol.profile.email_notifications["insight"] is True
    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    carol.profile.refresh_from_db()
    assert carol.profile.email_notifications == {"plan_reminder": False, "insight": False, "weekly_digest": True}


@pytest.mark.parametrize("how", ["tampered", "other_user", "unknown_user", "garbage"])
def test_a_bad_link_is_a_400_and_changes_nothing(db, client, how):
    carol = opted_in(insight=True)
    bob = opted_in("bob2", insight=True)
    path = unsubscribe_path(user_id=carol.id, kind="insight")
    if how == "tampered":
        path = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    elif how == "other_user":
        path = path.replace(f"/unsubscribe/{carol.id}/", f"/unsubscribe/{bob.id}/")
    elif how == "unknown_user":
        path = path.replace(f"/unsubscribe/{carol.id}/", "/unsubscribe/99999/")
    else:
        path = f"/unsubscribe/{carol.id}/not-a-token"
    for method in (client.get, client.post):
        assert method(path).status_code == 400
    for user in (carol, bob):
        user.profile.refresh_from_db()
        assert user.profile.email_notifications["insight"] is True


def test_the_link_in_the_mail_works(db, smtp, client, django_capture_on_commit_callbacks):
    carol = opted_in()
    with django_capture_on_commit_callbacks(execute=True):
        notify(carol)
    link = urlparse(smtp.messages[0]["List-Unsubscribe"].strip().strip("<>")).path
    assert client.post(link).status_code == 200
    carol.profile.refresh_from_db()
    assert carol.profile.email_notifications["insight"] is False


@pytest.mark.parametrize(
    ("url", "expected"),
    [("", "console.EmailBackend None"), ("smtp+tls://u:p@mail.example.com:587", "smtp.EmailBackend mail.example.com")],
)
def test_email_url_configures_the_backend(url, expected):
    import os
    import subprocess
    import sys

    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.EMAIL_BACKEND.rsplit('.', 2)[-2] + '.' + settings.EMAIL_BACKEND.rsplit('.', 1)[-1], "
        "settings.EMAIL_HOST if url else None)"
    ).replace("url", repr(url))
    env = {**os.environ, "EMAIL_URL": url, "DJANGO_SETTINGS_MODULE": "zeus.settings.base"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith(expected)


def test_a_locked_account_is_mailed_nothing_until_its_erasure_is_cancelled(
    db, smtp, django_capture_on_commit_callbacks
):
    from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request

    leaving, kept = opted_in("leaving"), opted_in("kept")
    smtp.stop()
    with django_capture_on_commit_callbacks(execute=True):
        held = notify(leaving)  # the older pending mail: the sweep's first pick, were it not left out
        notify(kept)
    account_erasure_request(user=leaving, now=timezone.now())
    smtp.start()
    later = timezone.now() + dt.timedelta(hours=2)
    assert mail_deliver(held.id, now=later) == "skipped"
    assert mail_sweep(now=later, limit=1) == {"sent": 1, "skipped": 0, "failed": 0}
    with django_capture_on_commit_callbacks(execute=True):
        notify(leaving, title="A webhook's payment arrived", key="paid")  # created during the grace: not sent
    assert [m["To"] for m in smtp.messages] == ["kept@example.com"]
    assert set(MailDelivery.objects.filter(notification__user=leaving).values_list("status", flat=True)) == {"pending"}

    account_erasure_cancel(user=leaving)
    assert mail_sweep(now=later + dt.timedelta(hours=2))["sent"] == 2
    assert sorted(m["To"] for m in smtp.messages) == ["kept@example.com"] + ["leaving@example.com"] * 2

"""Web push for the inbox, against a loopback push service that checks what a real one checks: the VAPID
Authorization header (an ES256 JWT for the endpoint's origin, signed by the site's key, and that key), the
aes128gcm headers, and a body it decrypts with the browser's keys. Expired subscriptions (404, 410) go."""

import base64
import http.server
import json
import os
import threading
import time
from functools import partial

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management import call_command

from tests.race import at_once
from zeus.models import PushSubscription
from zeus.push import push_deliver
from zeus.services import NotificationDraft, notification_create, notification_create_many

SUBJECT = "mailto:ops@zeus.example"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's side of a subscription: its ECDH key pair and auth secret, as PushManager makes them."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"p256dh": b64url(public), "auth": b64url(self.auth)}


class PushService:
    """Accepts a push as a push service does (201), or answers the status its path names (/gone/…: 410,
    /missing/…: 404, /down/…: 500, /partial/…: 206), or no HTTP at all (/garbled/…), or too late (/slow/…).
    Every request is checked and decrypted with the browser it was made for."""

    def __init__(self, public_key: str):
        self.public_key = public_key
        self.browsers: dict[str, Browser] = {}
        self.received: list[dict] = []
        self.slow_seconds = 0.0
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(service.check(self.path, dict(self.headers), body))
                kind = self.path.split("/")[1]
                if kind == "garbled":
                    self.wfile.write(b"not an HTTP status line\r\n\r\n")
                    self.close_connection = True
                    return
                if kind == "slow":
                    time.sleep(service.slow_seconds)
                status = {"gone": 410, "missing": 404, "down": 500, "partial": 206}.get(kind, 201)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def subscription(self, path: str) -> dict:
        browser = Browser()
        self.browsers[path] = browser
        return {"endpoint": self.origin + path, "keys": browser.keys()}

    def check(self, path: str, headers: dict, body: bytes) -> dict:
        headers = {name.lower(): value for name, value in headers.items()}
        scheme, _, params = headers["authorization"].partition(" ")
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        assert scheme == "vapid" and fields["k"] == self.public_key
        header, claims, signature = fields["t"].split(".")
        raw = unb64url(signature)
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(self.public_key))
        signed = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        key.verify(signed, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises when forged
        assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
        claims = json.loads(unb64url(claims))
        assert claims["aud"] == self.origin and claims["sub"] == SUBJECT
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600
        assert headers["content-encoding"] == "aes128gcm" and headers["ttl"] == "86400"
        assert headers.get("content-type", "application/octet-stream") == "application/octet-stream"
        assert "crypto-key" not in headers and "encryption" not in headers  # aes128gcm carries them in the body
        browser = self.browsers[path]
        plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
        return {"path": path, "message": json.loads(plain)}

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def vapid(settings):
    lines = []

    class Out:
        def write(self, text, *args, **kwargs):
            lines.append(text.strip())

        def flush(self):
            pass

    call_command("webpush_keys", subject=SUBJECT, stdout=Out())
    values = dict(line.split("=", 1) for line in "\n".join(lines).split())
    settings.ZEUS_WEBPUSH_VAPID_PUBLIC_KEY = values["ZEUS_WEBPUSH_VAPID_PUBLIC_KEY"]
    settings.ZEUS_WEBPUSH_VAPID_PRIVATE_KEY = values["ZEUS_WEBPUSH_VAPID_PRIVATE_KEY"]
    settings.ZEUS_WEBPUSH_VAPID_SUBJECT = values["ZEUS_WEBPUSH_VAPID_SUBJECT"]
    settings.ZEUS_WEBPUSH_ALLOW_HTTP = True
    return values


@pytest.fixture
def service(vapid):
    service = PushService(vapid["ZEUS_WEBPUSH_VAPID_PUBLIC_KEY"])
    yield service
    service.close()


def _subscribe(api, service, path):
    response = api.post("/api/v1/push/subscriptions", service.subscription(path), format="json")
    assert response.status_code == 201, response.content
    return response


def test_a_new_notification_is_pushed_to_each_subscribed_browser_on_commit(
    service, alice, bob, alice_api, bob_api, django_capture_on_commit_callbacks
):
    _subscribe(alice_api, service, "/phone")
    _subscribe(alice_api, service, "/laptop")
    _subscribe(bob_api, service, "/bobs")
    with django_capture_on_commit_callbacks(execute=True):
        made = notification_create(user=alice, kind="insight", title="Dining is up 40%", body="Week.", cta_url="/x")
        assert service.received == []  # nothing before the commit
    assert sorted(r["path"] for r in service.received) == ["/laptop", "/phone"]
    assert service.received[0]["message"] == {
        "id": made.id, "kind": "insight", "title": "Dining is up 40%", "body": "Week.", "url": "/x",
    }  # fmt: skip
    assert PushSubscription.objects.filter(user=alice, last_pushed_at__isnull=False).count() == 2
    listed = alice_api.get("/api/v1/push/subscriptions").json()
    assert listed["enabled"] is True and listed["public_key"] == service.public_key
    assert sorted(s["endpoint"] for s in listed["subscriptions"]) == [service.origin + p for p in ("/laptop", "/phone")]


def test_a_batch_of_notifications_is_pushed_too(service, alice, bob, alice_api, django_capture_on_commit_callbacks):
    _subscribe(alice_api, service, "/phone")
    with django_capture_on_commit_callbacks(execute=True):
        notification_create_many(
            [
                NotificationDraft(user_id=alice.id, kind="plan_reminder", title="Log today", body="", cta_url=""),
                NotificationDraft(user_id=bob.id, kind="plan_reminder", title="Log today", body="", cta_url=""),
            ]
        )
    assert [(r["path"], r["message"]["url"]) for r in service.received] == [("/phone", "/inbox")]


def test_an_expired_subscription_is_removed_and_a_failing_one_kept(service, alice, alice_api):
    for path in ("/gone/1", "/missing/2", "/down/3", "/ok"):
        _subscribe(alice_api, service, path)
    made = notification_create(user=alice, kind="insight", title="Hello")
    assert push_deliver(made.id) == {"sent": 1, "gone": 2, "failed": 1}
    assert sorted(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        service.origin + "/down/3", service.origin + "/ok",
    ]  # fmt: skip


def test_a_push_service_answering_nonsense_or_too_late_is_a_failure(service, alice, alice_api, monkeypatch):
    """Neither a garbled answer nor a timeout escapes the task; anything but 200-202 is not a push accepted."""
    monkeypatch.setattr("zeus.push.PUSH_TIMEOUT_SECONDS", 0.2)
    service.slow_seconds = 2.0
    for path in ("/garbled/1", "/slow/2", "/partial/3", "/ok"):
        _subscribe(alice_api, service, path)
    made = notification_create(user=alice, kind="insight", title="Hello")
    assert push_deliver(made.id) == {"sent": 1, "gone": 0, "failed": 3}
    assert sorted(r["path"] for r in service.received) == ["/garbled/1", "/ok", "/partial/3", "/slow/2"]
    assert PushSubscription.objects.count() == 4
    assert PushSubscription.objects.filter(last_pushed_at__isnull=False).get().endpoint == service.origin + "/ok"


def test_a_push_service_that_cannot_be_reached_is_a_failure_not_an_error(service, alice, alice_api):
    _subscribe(alice_api, service, "/ok")
    PushSubscription.objects.update(endpoint="http://127.0.0.1:9/unreachable")
    made = notification_create(user=alice, kind="insight", title="Hello")
    assert push_deliver(made.id) == {"sent": 0, "gone": 0, "failed": 1}
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"endpoint": "ftp://push.example/x"}, "endpoint"),
        ({"endpoint": "not a url"}, "endpoint"),
        ({"keys": {"p256dh": "AAAA", "auth": "x"}}, "keys.p256dh"),
        ({"keys": {"p256dh": "BBBB" * 22, "auth": "short"}}, "keys.p256dh"),
    ],
)
def test_a_bad_subscription_is_a_400_naming_its_field(service, alice_api, change, field):
    body = {**service.subscription("/ok"), **change}
    response = alice_api.post("/api/v1/push/subscriptions", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert not PushSubscription.objects.exists()


def test_https_is_required_unless_the_site_allows_http(service, settings, alice_api):
    settings.ZEUS_WEBPUSH_ALLOW_HTTP = False
    response = alice_api.post("/api/v1/push/subscriptions", service.subscription("/ok"), format="json")
    assert response.status_code == 400 and "endpoint" in response.json()["error"]["fields"]


def test_only_ones_own_subscription_is_removed(service, alice_api, bob_api):
    _subscribe(alice_api, service, "/alices")
    endpoint = service.origin + "/alices"
    assert bob_api.delete("/api/v1/push/subscriptions", {"endpoint": endpoint}, format="json").status_code == 404
    assert alice_api.delete("/api/v1/push/subscriptions", {"endpoint": endpoint}, format="json").status_code == 204
    assert not PushSubscription.objects.exists()


def test_push_is_off_by_default(alice, alice_api, client, django_capture_on_commit_callbacks):
    listed = alice_api.get("/api/v1/push/subscriptions").json()
    assert listed == {"enabled": False, "public_key": "", "subscriptions": []}
    body = {"endpoint": "https://push.example/x", "keys": Browser().keys()}
    response = alice_api.post("/api/v1/push/subscriptions", body, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "PUSH_DISABLED")
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/x", **Browser().keys())
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notification_create(user=alice, kind="insight", title="Hello")
    assert len(callbacks) == 1  # the live push only, no web push enqueued
    client.force_login(alice)
    assert 'id="push-toggle"' not in client.get("/settings").content.decode()


def test_the_settings_page_offers_the_toggle_and_the_worker_shows_pushes(vapid, alice, client):
    client.force_login(alice)
    page = client.get("/settings").content.decode()
    assert f'data-key="{vapid["ZEUS_WEBPUSH_VAPID_PUBLIC_KEY"]}"' in page and "/static/zeus/push.js" in page
    worker = client.get("/sw.js").content.decode()
    assert 'addEventListener("push"' in worker and "showNotification" in worker
    assert 'addEventListener("notificationclick"' in worker


@pytest.mark.django_db(transaction=True)
def test_a_browser_subscribing_twice_at_once_leaves_one_row(vapid, alice, bob):
    from zeus.push import push_subscription_save

    body = {"endpoint": "http://127.0.0.1:9/same", "keys": Browser().keys()}
    at_once(*(partial(push_subscription_save, user=user, **body) for user in (alice, bob)))
    assert PushSubscription.objects.filter(endpoint=body["endpoint"]).count() == 1


def test_too_many_browsers_is_a_409(service, alice, alice_api):
    for index in range(20):
        _subscribe(alice_api, service, f"/b{index}")
    response = alice_api.post("/api/v1/push/subscriptions", service.subscription("/one-more"), format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "TOO_MANY_SUBSCRIPTIONS")
    assert _subscribe(alice_api, service, "/b3").status_code == 201  # an existing browser may subscribe again


def test_a_locked_account_is_pushed_nothing_until_its_erasure_is_cancelled(
    service, alice, bob, alice_api, bob_api, django_capture_on_commit_callbacks
):
    from django.utils import timezone

    from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request

    _subscribe(bob_api, service, "/bobs")
    account_erasure_request(user=alice, now=timezone.now())  # this removes alice's subscriptions (credentials)
    # One that still lands: a browser's subscribe request committed just after the lock.
    late = service.subscription("/alices")
    PushSubscription.objects.create(
        user=alice, endpoint=late["endpoint"], p256dh=late["keys"]["p256dh"], auth=late["keys"]["auth"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        for user in (alice, bob):
            notification_create(user=user, kind="insight", title="Money arrived", body="", cta_url="/")
    assert [r["path"] for r in service.received] == ["/bobs"]
    assert not PushSubscription.objects.filter(user=alice, last_pushed_at__isnull=False).exists()

    account_erasure_cancel(user=alice)
    with django_capture_on_commit_callbacks(execute=True):
        notification_create(user=alice, kind="insight", title="Welcome back", body="", cta_url="/")
    assert [r["path"] for r in service.received] == ["/bobs", "/alices"]

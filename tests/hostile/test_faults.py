"""Faults survived, with real processes (docs/security.md, "Faults"): a worker killed with SIGKILL in the
middle of a job, a PostgreSQL backend terminated in the middle of a request, a Redis restart under open
sockets. Every lock or termination touches only this test's own sessions (tagged by application_name)."""

import datetime as dt
import json
import threading
import time
import uuid
import zoneinfo

import httpx2
import psycopg
import pytest
from django.conf import settings
from django.utils import timezone
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from assets.feeds.signing import sign
from assets.models import Asset, LinkedAccount, Transaction
from chat.models import Thread
from tests import factories
from tests.assets.feeds.sepay import payload as sepay_payload
from tests.chat.conftest import SERVER_KEY
from tests.chat.fake_anthropic import FakeAnthropic
from tests.chat.fake_anthropic import text as model_text
from tests.database import conninfo, database_url
from tests.hostile.parts import (
    AppProcess,
    RedisServer,
    WorkerProcess,
    backends_waiting_on_a_lock,
    eventually,
)
from tests.plans import factories as plan_factories
from zeus.models import Notification

pytestmark = [pytest.mark.faults, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _conninfo(**extra) -> str:
    return conninfo(**extra)


def _database_url(application_name: str) -> str:
    return database_url(application_name=application_name)


@pytest.fixture
def tag():
    return f"zeus-fault-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def holder():
    """A session of the test's own that takes the locks a fault needs, then lets them go."""
    with psycopg.connect(_conninfo(application_name="zeus-fault-holder")) as conn:
        yield conn
        conn.rollback()


@pytest.fixture
def admin_cursor():
    with psycopg.connect(_conninfo(application_name="zeus-fault-admin"), autocommit=True) as conn:
        yield conn.cursor()


def _due_plan(user):
    """An active plan whose reminder window is open now, in the user's clock."""
    local = timezone.now().astimezone(zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh")) - dt.timedelta(hours=1)
    plan = plan_factories.plan(user, month=local.strftime("%Y-%m"), active=True)
    plan.reminder_time = local.time().replace(second=0, microsecond=0)
    plan.save(update_fields=["reminder_time"])
    return plan, local.date()


def test_a_worker_killed_mid_reminders_loses_none_and_sends_none_twice(holder, admin_cursor, tag, tmp_path):
    from plans.tasks import send_due_reminders
    from zeus.celery import app

    plans = [_due_plan(factories.user(f"remind{n}")) for n in range(3)]
    (last_plan, day) = plans[-1]
    # The worker's claim of the last plan's reminder waits on this uncommitted row: the job is mid-statement.
    with holder.cursor() as cursor:
        cursor.execute(
            "INSERT INTO plans_reminderlog (plan_id, local_date, run_id, created_at) VALUES (%s, %s, %s, now())",
            [last_plan.id, day, uuid.uuid4()],
        )
    env = {"DATABASE_URL": _database_url(tag), "REDIS_URL": settings.REDIS_URL, "CELERY_VISIBILITY_TIMEOUT": "3"}
    app.conf.task_always_eager = False
    worker = WorkerProcess(env, log_path=tmp_path / "worker.log")
    try:
        send_due_reminders.delay()
        eventually(lambda: backends_waiting_on_a_lock(admin_cursor, tag), timeout=60)
        worker.kill()
        holder.rollback()
        # The killed worker's transaction died with its connection: nothing half-sent.
        assert not Notification.objects.filter(kind=Notification.Kind.PLAN_REMINDER).exists()

        worker = WorkerProcess(env, log_path=tmp_path / "worker.log")
        send_due_reminders.delay()  # the next beat tick; the unacknowledged one is redelivered as well
        eventually(lambda: Notification.objects.filter(kind=Notification.Kind.PLAN_REMINDER).count() == 3, 60)
        time.sleep(5)  # past the visibility timeout: the redelivered run has had its chance to double anything
    finally:
        worker.stop()
        app.conf.task_always_eager = True
    per_user = sorted(
        Notification.objects.filter(kind=Notification.Kind.PLAN_REMINDER).values_list("user_id", flat=True)
    )
    assert per_user == sorted(plan.user_id for plan, _ in plans)


def test_a_worker_killed_mid_insights_loses_none_and_sends_none_twice(holder, admin_cursor, tag, tmp_path):
    from suggestions.tasks import generate_insights
    from zeus.celery import app
    from zeus.timeutil import user_today

    users = [factories.user(f"insight{n}") for n in range(3)]
    for user in users:
        for _ in range(2):  # the same charge twice in a day: a duplicate_charge insight
            factories.txn(user, category="entertainment", description="CGV Cinemas", amount=240_000,
                          occurred_on=user_today(user))  # fmt: skip
    # The job has read its users and drafted their insights; its first write waits on this lock.
    with holder.cursor() as cursor:
        cursor.execute("LOCK TABLE suggestions_suggestion IN SHARE MODE")
    env = {"DATABASE_URL": _database_url(tag), "REDIS_URL": settings.REDIS_URL, "CELERY_VISIBILITY_TIMEOUT": "3"}
    ids = [user.id for user in users]
    insights = Notification.objects.filter(kind=Notification.Kind.INSIGHT)
    app.conf.task_always_eager = False
    worker = WorkerProcess(env, log_path=tmp_path / "worker.log")
    try:
        generate_insights.delay(user_ids=ids)
        eventually(lambda: backends_waiting_on_a_lock(admin_cursor, tag), timeout=60)
        worker.kill()
        holder.rollback()
        assert not insights.exists()

        worker = WorkerProcess(env, log_path=tmp_path / "worker.log")
        generate_insights.delay(user_ids=ids)  # the next night's run; the unacknowledged one comes back too
        eventually(lambda: insights.count() == 3, 60)
        time.sleep(5)
    finally:
        worker.stop()
        app.conf.task_always_eager = True
    assert sorted(insights.values_list("user_id", flat=True)) == sorted(ids)


@pytest.fixture
def app_process(tag, tmp_path):
    env = {"DATABASE_URL": _database_url(tag), "REDIS_URL": settings.REDIS_URL}
    process = AppProcess(env, log_path=tmp_path / "daphne.log")
    yield process
    process.stop()


CSV = (
    "date,description,amount,direction,category,external_id\n"
    "2026-11-01,Phở,50000,expense,dining,fault-1\n"
    "2026-11-02,Grab,30000,expense,transport,fault-2\n"
    "2026-11-03,Lương,20000000,income,salary,fault-3\n"
)


def test_an_import_whose_backend_is_terminated_fails_cleanly_and_a_retry_imports_once(
    app_process, holder, admin_cursor, tag, alice
):
    token = factories.api_key(alice)
    headers = {"Authorization": f"Token {token}", "Content-Type": "text/csv"}
    # The import serializes on the user's profile row; holding it parks the request mid-import.
    with holder.cursor() as cursor:
        cursor.execute("SELECT 1 FROM zeus_profile WHERE user_id = %s FOR UPDATE", [alice.id])
    answer = {}

    def upload():
        answer["response"] = httpx2.post(
            f"{app_process.url}/api/v1/transactions/import", content=CSV.encode(), headers=headers, timeout=30
        )

    thread = threading.Thread(target=upload)
    thread.start()
    pids = eventually(lambda: backends_waiting_on_a_lock(admin_cursor, tag), timeout=30)
    admin_cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [pids])
    thread.join(30)
    holder.rollback()

    failed = answer["response"]
    assert failed.status_code == 503, failed.text[:300]
    assert failed.json()["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert failed.headers["retry-after"]
    assert not Transaction.objects.filter(user=alice).exists()

    retried = eventually(
        lambda: (
            (
                r := app_process.http.post("/api/v1/transactions/import", content=CSV.encode(), headers=headers)
            ).status_code
            == 200
            and r
        )
    )
    assert retried.json() == {"imported": 3, "skipped": 0}
    again = app_process.http.post("/api/v1/transactions/import", content=CSV.encode(), headers=headers)
    assert again.json() == {"imported": 0, "skipped": 3}
    assert Transaction.objects.filter(user=alice).count() == 3


def test_a_webhook_delivery_whose_backend_is_terminated_fails_cleanly_and_the_retry_lands_once(
    app_process, holder, admin_cursor, tag, alice
):
    token = factories.api_key(alice)
    created = app_process.http.post(
        "/api/v1/integrations/sepay", json={"auth": "hmac"}, headers={"Authorization": f"Token {token}"}
    )
    assert created.status_code == 201, created.text[:300]
    connection_ = created.json()
    path = "/api/v1/" + connection_["webhook_url"].split("/api/v1/", 1)[1]
    body = json.dumps(sepay_payload(transferType="in", transferAmount=2_500_000, accumulated=21_577_000)).encode()
    stamp = str(int(time.time()))
    # SePay's retry is the same delivery: the same body, signed the same way.
    headers = {
        "Content-Type": "application/json",
        "X-SePay-Timestamp": stamp,
        "X-SePay-Signature": sign(connection_["secret"], stamp, body),
    }
    # The delivery has created the linked account and its asset, landed the transaction and moved the
    # balance when its last write, the inbox row, waits on this lock: it is parked in the middle of landing.
    with holder.cursor() as cursor:
        cursor.execute("LOCK TABLE zeus_notification IN SHARE MODE")
    answer = {}

    def post():
        answer["response"] = httpx2.post(f"{app_process.url}{path}", content=body, headers=headers, timeout=30)

    thread = threading.Thread(target=post)
    thread.start()
    pids = eventually(lambda: backends_waiting_on_a_lock(admin_cursor, tag), timeout=30)
    admin_cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [pids])
    thread.join(30)
    holder.rollback()

    failed = answer["response"]
    # Never a 200 for a delivery that was not stored: SePay retries only a non-2xx answer.
    assert failed.status_code == 503, failed.text[:300]
    assert failed.headers["content-type"].startswith("application/json")
    assert failed.json()["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert failed.headers["retry-after"]
    assert not Transaction.objects.filter(user=alice).exists()
    assert not LinkedAccount.objects.filter(user=alice).exists()
    assert not Notification.objects.filter(user=alice).exists()

    retried = eventually(
        lambda: (r := app_process.http.post(path, content=body, headers=headers)).status_code == 200 and r
    )
    assert retried.json() == {"success": True}
    again = app_process.http.post(path, content=body, headers=headers)
    assert again.status_code == 200 and again.json() == {"success": True}

    landed = Transaction.objects.get(user=alice)
    assert (landed.external_id, landed.direction, landed.amount) == ("sepay:92704", "income", 2_500_000)
    account = LinkedAccount.objects.get(user=alice)
    assert account.balance == 21_577_000
    assert Asset.objects.get(user=alice, linked_account=account).balance == 21_577_000
    assert Notification.objects.filter(user=alice, kind=Notification.Kind.TRANSACTION_SYNCED).count() == 1


def test_a_redis_restart_under_open_sockets_they_reconnect_and_the_next_turn_works(alice, tag, tmp_path):
    redis = RedisServer(log_path=tmp_path / "redis.log")
    fake = FakeAnthropic()
    fake.router_model = settings.ZEUS_ROUTER_MODEL
    env = {
        "DATABASE_URL": _database_url(tag),
        "REDIS_URL": redis.url,
        "ANTHROPIC_BASE_URL": fake.url,
        "ANTHROPIC_API_KEY": SERVER_KEY,
    }
    app = AppProcess(env, log_path=tmp_path / "daphne.log")
    try:
        from django.test import Client

        client = Client()
        client.force_login(alice)
        cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        thread = Thread.objects.create(user=alice)

        def open_socket():
            return connect(
                f"{app.ws_url}/ws/chat/{thread.id}/",
                additional_headers={"Cookie": cookie, "Origin": app.url},
                open_timeout=10,
            )

        def turn(ws, text):
            ws.send(json.dumps({"type": "user_message", "id": str(uuid.uuid4()), "text": text}))
            while True:
                frame = json.loads(ws.recv(timeout=30))
                if frame["type"] in ("done", "error"):
                    return frame

        fake.script(model_text("First answer."))
        sockets = [open_socket(), open_socket()]
        assert turn(sockets[0], "hello there")["type"] == "done"

        redis.restart()

        closed = []
        for ws in sockets:
            try:
                ws.recv(timeout=15)
            except ConnectionClosed as exc:
                closed.append(exc.rcvd.code if exc.rcvd else None)
            except TimeoutError:
                closed.append("open")
        # Each socket either survived the restart or was closed as "unavailable" (4503), never as a crash.
        assert all(code in ("open", 4503) for code in closed), closed
        for ws in sockets:
            ws.close()

        # As the page does: reconnect (with a pause) until a socket holds, then the next turn.
        fake.script(model_text("Second answer."))
        assert eventually(lambda: _try_turn(open_socket, turn), timeout=30, interval=0.5) == "done"
    finally:
        app.stop()
        redis.stop()
        fake.close()


def _try_turn(open_socket, turn):
    try:
        with open_socket() as ws:
            return turn(ws, "hello again")["type"]
    except (ConnectionClosed, InvalidHandshake, OSError):
        return None  # a browser's socket would back off and try again

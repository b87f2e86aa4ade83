"""`/healthz` (the process answers) and `/readyz` (what it depends on answers), for a load balancer and staff.

Neither reads the session or the user: a health check must not depend on what it checks. `/readyz` names each
dependency's state and how long its check took; failures say only the kind of error (the message can hold
host names and ports).
"""

import time

from django.conf import settings
from django.db import connections
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from zeus.dependencies import RETRY_AFTER_SECONDS

CHECK_TIMEOUT_SECONDS = 1


@never_cache
@require_GET
def healthz(request):
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def readyz(request):
    checks = {"database": _timed(_database), "redis": _timed(_redis), "broker": _timed(_broker)}
    ready = all(check["ok"] for check in checks.values())
    headers = None if ready else {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return JsonResponse(
        {"status": "ready" if ready else "unavailable", "checks": checks}, status=200 if ready else 503, headers=headers
    )


def _timed(check) -> dict:
    started = time.perf_counter()
    try:
        detail = check()
    except Exception as exc:
        result = {"ok": False, "error": type(exc).__name__}
    else:
        result = {"ok": True, **({"detail": detail} if detail else {})}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def _database():
    connection = connections["default"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _redis():
    if not settings.REDIS_URL:
        return "not configured: the in-memory cache and channel layer"
    # Imported by the check, not at start: the redis package is large and the URL conf loads this module in
    # every process (tests/test_startup.py).
    import redis

    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=CHECK_TIMEOUT_SECONDS, socket_timeout=CHECK_TIMEOUT_SECONDS
    )
    try:
        client.ping()
    finally:
        client.close()
    return None


def _broker():
    # The Celery app (and Celery with it) is loaded by the first check or the first task sent, not at start.
    from zeus.celery import app as celery_app

    if celery_app.conf.task_always_eager:
        return "not used: tasks run eagerly"
    with celery_app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=CHECK_TIMEOUT_SECONDS)
    return None

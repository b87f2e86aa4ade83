"""/healthz and /readyz: the process, then each dependency with its timing."""

import django.db
import pytest


def test_healthz_answers_without_touching_the_database(client):
    # No django_db mark: any query here raises.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_names_each_dependency_with_its_timing(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    assert set(body["checks"]) == {"database", "redis", "broker"}
    for check in body["checks"].values():
        assert check["ok"] is True
        assert check["ms"] >= 0


@pytest.mark.django_db
def test_readyz_is_503_when_the_database_fails(client, monkeypatch):
    def down():
        raise django.db.OperationalError("connection refused to 10.0.0.7:5432")

    monkeypatch.setattr("zeus.health._database", down)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    database = response.json()["checks"]["database"]
    assert database["ok"] is False
    assert database["error"] == "OperationalError"
    assert "10.0.0.7" not in response.content.decode()  # no host names or ports leak


@pytest.mark.redis
@pytest.mark.django_db
def test_readyz_is_503_when_redis_is_on_a_closed_port(client, settings):
    from tests.hostile.parts import free_port

    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"] == {
        "ok": False,
        "error": "ConnectionError",
        "ms": pytest.approx(0, abs=2000),
    }


def test_the_timeouts_are_short(settings):
    options = settings.DATABASES["default"].get("OPTIONS", {})
    if "pool" in options:
        assert options["pool"]["timeout"] <= 2
    if settings.REDIS_URL:
        assert settings.CACHES["default"]["OPTIONS"]["socket_connect_timeout"] <= 2

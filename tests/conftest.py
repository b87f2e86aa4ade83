import os

import pytest
from django.conf import settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests import factories

IN_CI = os.environ.get("CI") == "true"


def pytest_configure(config):
    # In CI a missing PostgreSQL or Redis is a failure, never a silent fall back to SQLite or skips.
    if IN_CI:
        engine = settings.DATABASES["default"]["ENGINE"]
        if "postgresql" not in engine:
            raise pytest.UsageError("CI=true but DATABASE_URL does not point at PostgreSQL.")
        if not settings.REDIS_URL:
            raise pytest.UsageError("CI=true but REDIS_URL is not set.")


def pytest_collection_modifyitems(config, items):
    on_postgres = "postgresql" in settings.DATABASES["default"]["ENGINE"]
    for item in items:
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)"))
        if "redis" in item.keywords and not settings.REDIS_URL:
            item.add_marker(pytest.mark.skip(reason="needs Redis (set REDIS_URL)"))


@pytest.fixture
def alice(db):
    return factories.user("alice")


@pytest.fixture
def bob(db):
    return factories.user("bob")


@pytest.fixture
def staff(db):
    return factories.user("staff", is_staff=True, is_superuser=True)


def _token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def alice_api(alice) -> APIClient:
    return _token_client(alice)


@pytest.fixture
def bob_api(bob) -> APIClient:
    return _token_client(bob)


@pytest.fixture
def anon_api() -> APIClient:
    return APIClient()

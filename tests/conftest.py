import os

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from tests import factories

IN_CI = os.environ.get("CI") == "true"


def pytest_configure(config):
    # CI runs against the machine's own PostgreSQL and Redis (.ci/run): a missing one is a failure there, never
    # the embedded database or skips.
    if IN_CI:
        if not settings.REDIS_URL:
            raise pytest.UsageError("CI=true but REDIS_URL is not set.")
        if not os.environ.get("DATABASE_URL"):  # read after the settings, which load .env into the environment
            raise pytest.UsageError("CI=true but DATABASE_URL is not set.")


def pytest_collection_modifyitems(config, items):
    for item in items:
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


def token_client(user) -> APIClient:
    client = APIClient()
    # A device that has been using its token: the first request of each minute also records the use (one
    # UPDATE, zeus.accounts.services.device_token_touch), which the per-request query budgets leave out.
    key = factories.api_key(user, last_used_at=timezone.now())
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def alice_api(alice) -> APIClient:
    return token_client(alice)


@pytest.fixture
def bob_api(bob) -> APIClient:
    return token_client(bob)


@pytest.fixture
def anon_api() -> APIClient:
    return APIClient()

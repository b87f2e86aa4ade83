"""The Content-Security-Policy header, written by django-csp's own middleware from settings.CONTENT_SECURITY_POLICY."""

import re

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

SCRIPT = re.compile(rb"<script\b[^>]*>", re.I)


def test_the_policy_comes_from_django_csps_own_middleware():
    assert "csp.middleware.CSPMiddleware" in settings.MIDDLEWARE


def test_pages_and_the_api_carry_the_policy(client):
    for path in ("/login", "/api/v1/profile", "/api/v1/docs"):
        policy = client.get(path)["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "'unsafe-inline'" not in policy.split("style-src")[0]
    # The Swagger page's own widening still comes through (csp_update in zeus/urls.py), and names no CDN.
    docs = client.get("/api/v1/docs")["Content-Security-Policy"]
    assert "'unsafe-inline'" in docs and "cdn.jsdelivr.net" not in docs
    assert "'unsafe-inline'" not in client.get("/api/v1/profile")["Content-Security-Policy"]


@pytest.mark.parametrize("path", ["/accounts/login/", "/", "/chat/", "/transactions", "/plans", "/settings"])
def test_every_script_of_a_page_is_a_file_the_policy_allows(path, alice, client):
    """script-src 'self' and no nonce: a script a page wrote inline would not run, so none may be (a JSON data
    block is not run, so it may)."""
    client.force_login(alice)
    response = client.get(path, follow=True)
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "nonce-" not in policy
    scripts = SCRIPT.findall(response.content)
    assert scripts, "each page loads its scripts"
    assert all(b" src=" in tag or b'type="application/json"' in tag for tag in scripts), scripts

"""Every page is one HTML response plus static files the browser caches, with nothing inline a strict
Content-Security-Policy would refuse: no inline script, no style attribute, no inline event handler."""

import re

import pytest

from tests import factories
from zeus.services import notification_create

pytestmark = pytest.mark.django_db

PAGES = ["/", "/transactions", "/budgets", "/goals", "/inbox", "/settings", "/plans", "/chat"]


@pytest.fixture
def full(alice):
    factories.asset(alice, balance="1000000")
    txn = factories.txn(alice, description="Coffee")
    factories.budget(alice)
    factories.goal(alice)
    notification_create(user=alice, kind="insight", title="x", cta_url="/chat?prompt=x")
    return txn


def test_pages_have_no_inline_script_style_or_handler(alice_web, full):
    for path in [*PAGES, f"/transactions?edit={full.id}", f"/transactions?delete={full.id}"]:
        html = alice_web.get(path).content.decode()
        scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
        for attrs, body in scripts:
            # A script either comes from a file, or is data (json_script), never code.
            assert "src=" in attrs or 'type="application/json"' in attrs, (path, attrs)
            assert "src=" not in attrs or not body.strip(), path
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        for src in re.findall(r'(?:src|href)="(/[^"]*\.(?:js|css|svg))"', html):
            assert src.startswith(("/static/", "/jsi18n/")), (path, src)

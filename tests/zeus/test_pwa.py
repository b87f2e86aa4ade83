"""Zeus on the phone's home screen: the manifest and the worker with the headers an installable app needs, the
offline page, and the share target that turns a shared bank notification into a draft."""

import json

import pytest
from django.test import Client

from assets.models import BankTextDraft, Transaction

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_web(client, alice):
    client.force_login(alice)
    return client


SHARED = (
    "SD TK 0071000123456 -150,000VND luc 01-12-2026 10:15:20. SD 2,345,000VND. Ref 123456.011226.101520.KFC NGUYEN HUE"
)


def test_the_manifest_names_zeus_its_icons_and_the_share_target(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Zeus" and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#")
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200
    assert manifest["share_target"]["action"] == "/share" and manifest["share_target"]["method"] == "POST"


def test_every_page_links_the_manifest(alice_web):
    html = alice_web.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html and "zeus/install.js" in html


def test_the_worker_is_served_from_the_root_never_cached_and_caches_no_user_data(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/" and "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    shell = json.loads(script.split("const SHELL = ")[1].split(";\n")[0])
    assert "/offline" in shell
    assert all(p == "/offline" or p.startswith("/static/") for p in shell), shell
    assert "/api/" not in script


def test_the_offline_page_is_in_the_language_and_needs_no_login(client):
    page = client.get("/offline", HTTP_ACCEPT_LANGUAGE="vi")
    assert page.status_code == 200 and "Bạn đang ngoại tuyến" in page.content.decode()


def test_a_shared_bank_notification_becomes_a_draft_then_a_transaction(alice):
    share_sheet = Client(enforce_csrf_checks=True)  # the operating system posts without the page's token
    share_sheet.force_login(alice)
    response = share_sheet.post("/share", {"title": "Vietcombank", "text": SHARED})
    draft = BankTextDraft.objects.get(user=alice)
    assert response.status_code == 302 and response["Location"] == f"/share/{draft.id}"
    assert draft.status == "draft" and not Transaction.objects.filter(user=alice).exists()
    page = share_sheet.get(f"/share/{draft.id}").content.decode()
    assert f'action="/share/{draft.id}/confirm"' in page
    web = Client()
    web.force_login(alice)
    confirmed = web.post(f"/share/{draft.id}/confirm")
    assert confirmed.status_code == 302 and confirmed["Location"] == "/transactions"
    assert Transaction.objects.get(user=alice).amount == 150000


def test_an_unreadable_share_says_so_and_makes_nothing(alice_web, alice, monkeypatch):
    monkeypatch.setattr("assets.banktexts.services.read_with_model", lambda text, **kw: None)
    response = alice_web.post("/share", {"text": "hello there"})
    assert response.status_code == 422
    assert "by hand" in response.content.decode() or "bằng tay" in response.content.decode()
    assert alice_web.post("/share", {}).status_code == 400
    assert not BankTextDraft.objects.filter(user=alice).exists()


def test_confirming_a_share_is_a_form_of_the_site_and_only_the_owners(alice, bob):
    share_sheet = Client(enforce_csrf_checks=True)
    share_sheet.force_login(alice)
    share_sheet.post("/share", {"text": SHARED})
    draft = BankTextDraft.objects.get(user=alice)
    assert share_sheet.post(f"/share/{draft.id}/confirm").status_code == 403  # no token
    other = Client()
    other.force_login(bob)
    assert other.get(f"/share/{draft.id}").status_code == 404
    other.post(f"/share/{draft.id}/confirm")
    assert not Transaction.objects.exists()


def test_sharing_needs_a_login(client):
    response = client.post("/share", {"text": SHARED})
    assert response.status_code == 302 and "/login" in response["Location"]

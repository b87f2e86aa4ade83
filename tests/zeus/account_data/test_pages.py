import datetime as dt
import io

import pytest
from django.test import Client
from django.utils import timezone

from assets.models import Transaction
from tests import factories
from tests.zeus.account_data.test_restore import export_bytes
from zeus.models import AccountExport


def signed_in(user) -> Client:
    client = Client()
    assert client.post("/accounts/login/", {"login": user.username, "password": factories.PASSWORD}).status_code == 302
    return client


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_the_settings_page_offers_the_export_and_the_data_page(alice):
    page = signed_in(alice).get("/settings").content.decode()
    assert 'action="/settings/data/export"' in page and 'href="/settings/data"' in page


def test_export_from_the_page_and_download_by_the_owner_only(alice, bob, on_commit):
    browser = signed_in(alice)
    with on_commit():
        response = browser.post("/settings/data/export")
    assert response.status_code == 302 and response.url == "/settings/data"
    export = AccountExport.objects.get(user=alice)
    page = browser.get("/settings/data").content.decode()
    assert f"/account/exports/{export.id}/download" in page
    download = browser.get(f"/account/exports/{export.id}/download")
    assert download.status_code == 200 and download["Content-Type"] == "application/zip"
    assert signed_in(bob).get(f"/account/exports/{export.id}/download").status_code == 404
    AccountExport.objects.filter(id=export.id).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert browser.get(f"/account/exports/{export.id}/download").status_code == 410
    assert Client().get(f"/account/exports/{export.id}/download").status_code == 302  # to the sign-in


def _zip(data: bytes):
    file = io.BytesIO(data)
    file.name = "zeus-export.zip"
    return file


def test_import_from_the_page(alice, bob):
    factories.txn(alice, amount="80000", description="Cà phê")
    data = export_bytes(alice)
    browser = signed_in(bob)
    bad = browser.post("/settings/data/import", {"file": _zip(b"not a zip")})
    assert bad.status_code == 400 and "INVALID_ARCHIVE" in bad.content.decode()
    done = browser.post("/settings/data/import", {"file": _zip(data)})
    assert done.status_code == 302 and done.url == "/"
    assert Transaction.objects.get(user=bob).description == "Cà phê"
    again = browser.post("/settings/data/import", {"file": _zip(data)})
    assert again.status_code == 409
    assert Transaction.objects.filter(user=bob).count() == 1

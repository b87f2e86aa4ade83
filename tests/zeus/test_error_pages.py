"""A wrong address or a fault: the site's own page in the reader's language, JSON under /api/, and the same 404
page under DEBUG (where Django would show its debug page)."""

import pytest
from django.test import override_settings
from django.urls import path

from tests import factories

pytestmark = pytest.mark.django_db


def broken(request):
    raise RuntimeError("boom")


urlpatterns = [path("broken", broken)]


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_page_is_the_sites_404_in_vietnamese_and_english(client, settings, debug):
    settings.DEBUG = debug
    user = factories.user("lost")
    user.profile.language = "vi"
    user.profile.save()
    client.force_login(user)
    vi = client.get("/no-such-page")
    assert vi.status_code == 404
    assert "Không tìm thấy trang" in vi.content.decode() and 'class="mainnav"' in vi.content.decode()
    user.profile.language = "en"
    user.profile.save()
    en = client.get("/no-such-page")
    assert en.status_code == 404 and "Page not found" in en.content.decode()
    assert "Technical" not in en.content.decode() and "URLconf" not in en.content.decode()


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_api_path_stays_json(client, settings, debug):
    settings.DEBUG = debug
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404 and response.json()["error"]["code"] == "NOT_FOUND"


def test_a_missing_row_raised_by_a_view_under_debug_is_the_sites_404(client, settings):
    settings.DEBUG = True
    client.force_login(factories.user("lost2"))
    response = client.get("/jsi18n/xx/abc.js")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode() or "Không tìm thấy trang" in response.content.decode()
    assert "Raised by" not in response.content.decode()


@override_settings(ROOT_URLCONF=__name__)
def test_a_fault_is_the_sites_500_in_the_language(client):
    client.raise_request_exception = False
    response = client.get("/broken", HTTP_ACCEPT_LANGUAGE="vi")
    assert response.status_code == 500
    assert "Đã có lỗi xảy ra" in response.content.decode()

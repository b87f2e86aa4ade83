"""The admin in Vietnamese: a staff member whose profile reads `vi` sees every registered model's name (and its
app's) in Vietnamese, on the index and on each changelist. A model added without a translated verbose name
fails here, because the walk is over `admin.site._registry`."""

import pytest
from django.contrib import admin
from django.utils import translation

from tests import factories

pytestmark = pytest.mark.django_db
REGISTERED = sorted(admin.site._registry, key=lambda m: m._meta.label)


def _names(model, language: str) -> tuple[str, str]:
    with translation.override(language):
        return str(model._meta.verbose_name), str(model._meta.verbose_name_plural)


@pytest.fixture
def staff_vi(client):
    client.force_login(factories.user("thu", language="vi", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("model", REGISTERED, ids=lambda m: m._meta.label)
def test_every_model_has_a_vietnamese_name(model):
    vi, en = _names(model, "vi"), _names(model, "en")
    assert vi[0].lower() != en[0].lower(), f"{model._meta.label}: {en[0]!r} is not translated"
    assert vi[1].lower() != en[1].lower(), f"{model._meta.label}: {en[1]!r} is not translated"


@pytest.mark.parametrize("model", REGISTERED, ids=lambda m: m._meta.label)
def test_its_changelist_reads_vietnamese(model, staff_vi):
    url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    html = staff_vi.get(url).content.decode()
    (vi_one, vi_many), en_one = _names(model, "vi"), _names(model, "en")[0]
    assert vi_one in html or vi_many in html
    assert f"<title>Chọn {vi_one}" in html or vi_many in html
    assert f"Select {en_one} to change" not in html


def test_the_admin_index_names_apps_and_models_in_vietnamese(staff_vi):
    html = staff_vi.get("/admin/").content.decode()
    for label in ("Tài khoản và tiền", "Mục tiêu và ngân sách", "Kế hoạch tháng", "Gợi ý và nhận định"):
        assert label in html
    for model in REGISTERED:
        en_many = _names(model, "en")[1]
        assert f">{en_many.capitalize()}<" not in html, en_many

"""`manage.py prepare`, all `make run` does before it serves: stale catalogs compiled, migrations applied, the
demo data loaded, in one process."""

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.mark.django_db
def test_it_compiles_the_stale_catalogs_migrates_and_loads_the_demo(settings, tmp_path):
    po = tmp_path / "vi" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    shutil.copy(LOCALE / "vi" / "LC_MESSAGES" / "django.po", po)
    settings.LOCALE_PATHS, settings.BASE_DIR = [tmp_path], tmp_path
    out = StringIO()

    call_command("prepare", stdout=out)

    assert po.with_suffix(".mo").exists() and "compiled vi/LC_MESSAGES/django.mo" in out.getvalue()
    assert "No migrations to apply." in out.getvalue()
    assert authenticate(RequestFactory().post("/accounts/login/"), username="demo", password="demo") is not None
    again = StringIO()
    call_command("prepare", stdout=again)
    assert "compiled" not in again.getvalue()  # the catalog is up to date now

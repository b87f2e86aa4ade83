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


@pytest.mark.django_db(transaction=True)
def test_on_a_fresh_checkout_the_demo_is_written_in_vietnamese():
    """No catalog compiled yet, as after a clone: the demo's names must still come out in Vietnamese, although
    Django reads the default language's catalog while it sets up, before `prepare` compiles it."""
    import os
    import subprocess
    import sys

    from django.db import connection

    from assets.models import Asset

    compiled = sorted(LOCALE.glob("*/LC_MESSAGES/*.mo"))
    kept = {mo: mo.read_bytes() for mo in compiled}
    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    try:
        for mo in compiled:
            mo.unlink()
        done = subprocess.run(
            [sys.executable, "manage.py", "prepare"], cwd=LOCALE.parent, env=env, capture_output=True, text=True
        )
    finally:
        for mo, content in kept.items():
            mo.write_bytes(content)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "compiled locale/vi/LC_MESSAGES/django.mo" in done.stdout
    names = set(Asset.objects.filter(user__username="demo").values_list("name", flat=True))
    assert "Tiết kiệm Techcombank" in names and "Techcombank savings" not in names

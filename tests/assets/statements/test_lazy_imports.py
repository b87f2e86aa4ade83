"""The statement readers' libraries load when a file of their format arrives, never when Django starts."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("lxml", "openpyxl", "mt940", "quiffen", "ofxtools", "csb43", "pycountry", "coda", "cfonb")


def test_django_starts_without_the_statement_libraries():
    code = (
        "import os, sys, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'zeus.settings.test'); "
        "django.setup(); import zeus.urls, assets.importing, assets.api, assets.import_api; "
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"

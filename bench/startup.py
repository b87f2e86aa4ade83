"""Start-up: `manage.py check` against a bare Django project's, and `manage.py prepare` on a second start.

The bare project is `django-admin startproject` in a temporary folder, run by the same interpreter. The two
`check` commands run alternately as whole processes, each with its bytecode cache written (a deployed tree has
one; a first run compiles), and the figure is the median of the pair-by-pair ratios, so a machine that drifts
during the run moves both. `prepare` is what `make run` does before it serves (catalogs, migrations, the demo
data); its second start, with nothing left to do, is timed against the same bare `check`.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAIRS = 9


def _seconds(args: list[str], *, cwd: Path, env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True, timeout=600)
    return time.perf_counter() - started


def run() -> list:
    from django.db import connection

    from bench._common import Row, sec

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # The benchmark's fresh database, as the subprocesses must see it.
    settings = connection.settings_dict
    env["DATABASE_URL"] = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    env["DJANGO_SETTINGS_MODULE"] = "zeus.settings.base"
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "django", "startproject", "bare", tmp], check=True, capture_output=True)
        bare_env = {k: v for k, v in env.items() if k != "DJANGO_SETTINGS_MODULE"}
        zeus_check = [sys.executable, "manage.py", "check"]
        bare_check = [sys.executable, "manage.py", "check"]
        for _ in range(2):  # the bytecode caches written, the files in the page cache
            _seconds(zeus_check, cwd=ROOT, env=env)
            _seconds(bare_check, cwd=Path(tmp), env=bare_env)
        zeus_s, bare_s = [], []
        for _ in range(PAIRS):
            zeus_s.append(_seconds(zeus_check, cwd=ROOT, env=env))
            bare_s.append(_seconds(bare_check, cwd=Path(tmp), env=bare_env))
        _seconds([sys.executable, "manage.py", "prepare"], cwd=ROOT, env=env)  # the first start fills the database
        second = statistics.median(
            _seconds([sys.executable, "manage.py", "prepare"], cwd=ROOT, env=env) for _ in range(3)
        )
    ratio = statistics.median(z / b for z, b in zip(zeus_s, bare_s, strict=True))
    bare_median = statistics.median(bare_s)
    return [
        Row(
            figure="`manage.py check`, median of paired runs",
            value=f"{sec(statistics.median(zeus_s))} (bare project {sec(bare_median)})",
            ratio=ratio,
            target="≤ 1.5x a bare project's",
            met=ratio <= 1.5,
        ),
        Row(
            figure="`manage.py prepare` on a second start (what `make run` does before serving)",
            value=sec(second),
            ratio=second / bare_median,
            target="`make run` up in under 15 s on a second start",
            met=second < 15,
        ),
    ]

"""Start-up: `manage.py check` against a bare Django project's, and `manage.py prepare` on a second start.

The bare project is `django-admin startproject` in a temporary folder, run by the same interpreter. A second
project, the stock one, is the same with the stock libraries Zeus is built on added as their docs configure them
(bench/_stock_project: DRF and drf-spectacular, allauth with MFA, axes, django-csp, Channels, psycopg) and no
code of Zeus's: the floor for any project on those libraries, so the row beside the target says how much of the
distance is theirs and how much is Zeus's own. The `check` commands run in turn as whole processes, each with
its bytecode cache written (a deployed tree has one; a first run compiles), and each figure is the median of the
round-by-round ratios, so a machine that drifts during the run moves all three. `prepare` is what `make run`
does before it serves (catalogs, migrations, the demo data); its second start, with nothing left to do, is timed
against the same bare `check`.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STOCK = Path(__file__).resolve().parent / "_stock_project"
PAIRS = 9


def _seconds(args: list[str], *, cwd: Path, env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True, timeout=600)
    return time.perf_counter() - started


def _stock_project(folder: Path) -> None:
    """`startproject stock`, with the stock libraries' settings appended and their URLs in place of its own."""
    subprocess.run([sys.executable, "-m", "django", "startproject", "stock", folder], check=True, capture_output=True)
    with open(folder / "stock" / "settings.py", "a") as settings:
        settings.write("\n" + (STOCK / "settings_tail.py").read_text())
    shutil.copy(STOCK / "urls.py", folder / "stock" / "urls.py")


def run() -> list:
    from django.db import connection

    from bench._common import Row, sec

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # The benchmark's fresh database, as the subprocesses must see it.
    settings = connection.settings_dict
    env["DATABASE_URL"] = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    env["DJANGO_SETTINGS_MODULE"] = "zeus.settings.base"
    with tempfile.TemporaryDirectory() as tmp:
        bare, stock = Path(tmp) / "bare", Path(tmp) / "stock"
        bare.mkdir()
        stock.mkdir()
        subprocess.run([sys.executable, "-m", "django", "startproject", "bare", bare], check=True, capture_output=True)
        _stock_project(stock)
        bare_env = {k: v for k, v in env.items() if k != "DJANGO_SETTINGS_MODULE"}
        check = [sys.executable, "manage.py", "check"]
        for _ in range(2):  # the bytecode caches written, the files in the page cache
            _seconds(check, cwd=ROOT, env=env)
            _seconds(check, cwd=bare, env=bare_env)
            _seconds(check, cwd=stock, env=bare_env)
        zeus_s, bare_s, stock_s = [], [], []
        for _ in range(PAIRS):
            zeus_s.append(_seconds(check, cwd=ROOT, env=env))
            bare_s.append(_seconds(check, cwd=bare, env=bare_env))
            stock_s.append(_seconds(check, cwd=stock, env=bare_env))
        _seconds([sys.executable, "manage.py", "prepare"], cwd=ROOT, env=env)  # the first start fills the database
        second = statistics.median(
            _seconds([sys.executable, "manage.py", "prepare"], cwd=ROOT, env=env) for _ in range(3)
        )
    ratio = statistics.median(z / b for z, b in zip(zeus_s, bare_s, strict=True))
    stock_ratio = statistics.median(s / b for s, b in zip(stock_s, bare_s, strict=True))
    own_ratio = statistics.median(z / s for z, s in zip(zeus_s, stock_s, strict=True))
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
            figure="the stock libraries' project's `check` (no Zeus code), against the bare project's",
            value=sec(statistics.median(stock_s)),
            ratio=stock_ratio,
        ),
        Row(figure="Zeus's `check` over the stock libraries' project's", value=f"{own_ratio:.2f}x"),
        Row(
            figure="`manage.py prepare` on a second start (what `make run` does before serving)",
            value=sec(second),
            ratio=second / bare_median,
            target="`make run` up in under 15 s on a second start",
            met=second < 15,
        ),
    ]

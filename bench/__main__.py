"""`make bench` (or `python -m bench [name ...]`): runs the benchmarks and records them in docs/PERFORMANCE.md.

Each module `bench/<name>.py` (not starting with `_`) has `run() -> str`, returning a Markdown section that
gives its figures as ratios to a baseline measured in the same run. The suite runs on a fresh PostgreSQL
database (BENCH_DATABASE_URL, default the machine's local server) created and dropped for each benchmark.
"""

import importlib
import os
import pkgutil
import re
import sys
import time
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "PERFORMANCE.md"
HEADER = """# Performance

Measured by `make bench` on the machine named in each section, against PostgreSQL and Redis. Figures are
ratios to a baseline measured in the same run, so they compare across machines; absolute times are for
orientation only. Each section is rewritten when its benchmark runs.
"""


def _names(selected: list[str]) -> list[str]:
    found = [m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if not m.name.startswith("_")]
    unknown = set(selected) - set(found)
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(sorted(unknown))}; have: {', '.join(sorted(found))}")
    return sorted(selected or found)


def _record(name: str, body: str) -> None:
    text = DOC.read_text() if DOC.exists() else HEADER
    block = f"<!-- bench:{name} -->\n{body.strip()}\n<!-- /bench:{name} -->"
    pattern = re.compile(rf"<!-- bench:{re.escape(name)} -->.*?<!-- /bench:{re.escape(name)} -->", re.S)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else f"{text.rstrip()}\n\n{block}\n"
    DOC.write_text(text)


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zeus_bench")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
    import django

    django.setup()
    from django.db import connection

    for name in _names(argv):
        # A fresh database per benchmark: each loads its own rows and must not meet another's.
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
        try:
            started = time.perf_counter()
            print(f"== {name}", flush=True)
            body = importlib.import_module(f"bench.{name}").run()
            print(body, flush=True)
            print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)
            _record(name, body)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main(sys.argv[1:])

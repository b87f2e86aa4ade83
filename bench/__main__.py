"""`make bench` (or `python -m bench [name ...]`): runs the benchmarks and writes their table in docs/PERFORMANCE.md.

Each module `bench/<name>.py` (not starting with `_`) says in its docstring what it measures and against which
baseline, and has `run() -> list[Row]` (bench._common.Row): its figures, each with its ratio to a baseline
measured in the same run, its target and whether the target is met. This module writes those rows into the one
table between PERFORMANCE.md's markers, replacing the rows of the benchmarks that ran and keeping the others',
and notes under it when and where each benchmark last ran. Nothing in the table is edited by hand.

The suite runs on a fresh PostgreSQL database (BENCH_DATABASE_URL, default the machine's local server) created and
dropped for each benchmark.
"""

import datetime as dt
import importlib
import os
import pkgutil
import re
import sys
import time
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "PERFORMANCE.md"
BEGIN, END = "<!-- bench:table -->", "<!-- /bench:table -->"
HEAD = "| benchmark | figure | value | ratio to its in-run baseline | target | met? |\n" + "| --- " * 6 + "|"
NOT_MEASURED = "not yet measured on this tree"


def _names(selected: list[str]) -> list[str]:
    found = [m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if not m.name.startswith("_")]
    unknown = set(selected) - set(found)
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(sorted(unknown))}; have: {', '.join(sorted(found))}")
    return sorted(selected or found)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(name: str, rows: list) -> list[str]:
    """The Markdown lines of one benchmark's rows."""
    if not rows:
        return [f"| `{name}` | | {NOT_MEASURED} | | | |"]
    lines = []
    for row in rows:
        ratio = "" if row.ratio is None else f"{row.ratio:.2f}"
        met = {None: "", True: "yes", False: "**no**"}[row.met]
        cells = (f"`{name}`", _cell(row.figure), _cell(row.value), ratio, _cell(row.target), met)
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _sections(text: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The table's rows and the run notes now between the markers, by benchmark."""
    rows: dict[str, list[str]] = {}
    notes: dict[str, str] = {}
    match = re.search(rf"{re.escape(BEGIN)}(.*?){re.escape(END)}", text, re.S)
    for line in (match.group(1) if match else "").splitlines():
        if found := re.match(r"\| `([a-z_0-9]+)` \|", line):
            rows.setdefault(found.group(1), []).append(line)
        elif found := re.match(r"- `([a-z_0-9]+)`: ", line):
            notes[found.group(1)] = line
    return rows, notes


def write(results: dict[str, list], *, runs: dict[str, str], names: list[str]) -> None:
    """Put the rows of the benchmarks in `results` into PERFORMANCE.md's table; every other benchmark in
    `names` keeps the rows it has (or says it was not measured)."""
    text = DOC.read_text()
    if BEGIN not in text:
        text = f"{text.rstrip()}\n\n{BEGIN}\n{END}\n"
    rows, notes = _sections(text)
    for name, result in results.items():
        rows[name] = render(name, result)
        notes[name] = f"- `{name}`: {runs[name]}"
    body = [HEAD]
    for name in sorted(set(names) | set(rows)):
        body += rows.get(name) or render(name, [])
    body += ["", "Where each benchmark last ran:", ""]
    body += [notes.get(name, f"- `{name}`: {NOT_MEASURED}") for name in sorted(set(names) | set(rows))]
    block = f"{BEGIN}\n" + "\n".join(body) + f"\n{END}"
    text = re.sub(rf"{re.escape(BEGIN)}.*?{re.escape(END)}", lambda _: block, text, flags=re.S)
    DOC.write_text(text)


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zeus_bench")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
    # The settings bound every statement for requests; loading a million rows by COPY on a busy machine may take
    # longer than a request ever should, so the benchmarks (and the servers and workers they start) allow more.
    os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", "600000")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    from bench._common import Row, machine

    every = _names([])
    base_name = connection.settings_dict["NAME"]
    for name in _names(argv):
        # A fresh database per benchmark: each loads its own rows and must not meet another's. Some benchmarks
        # start servers that set up databases of their own, so the name is put back before each one: otherwise
        # every benchmark's test database was named after the last one's ("test_test_…").
        connection.settings_dict["NAME"] = settings.DATABASES["default"]["NAME"] = base_name
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
        try:
            started, load = time.perf_counter(), os.getloadavg()[0]
            print(f"== {name}", flush=True)
            rows = importlib.import_module(f"bench.{name}").run()
            if not all(isinstance(row, Row) for row in rows):
                raise TypeError(f"bench.{name}.run() must return a list of bench._common.Row")
            for line in render(name, rows):
                print(line, flush=True)
            print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)
            when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
            write({name: rows}, runs={name: f"{when}, {machine()}, load average {load:.1f}"}, names=every)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main(sys.argv[1:])

"""The websocket server is started as `python -m zeus.ws_serve` everywhere the repository starts it or tells
someone to: daphne's own command line with its oversized-frame close turned into 1009 (zeus/ws_serve.py). Bare
`daphne` drops such a connection (1006), which the page cannot explain. tests/zeus/test_proxy.py holds the close
code on the Procfile's process; this holds that nothing else starts the server another way."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# `daphne -b …`, `daphne --fd`, `daphne zeus.asgi:application`, `daphne \`zeus.asgi:application\``: a command.
# Prose ("daphne serves", "daphne's", "daphne (zeus/asgi.py)") is not.
BARE_COMMAND = re.compile(r"\bdaphne\s+`?(?:-{1,2}[a-z]|[\w.]+:\w+)")
# A process started from the `daphne` executable: `BIN / "daphne"`, `.with_name("daphne")`.
BARE_EXECUTABLE = re.compile(r"""(?:/\s*|with_name\(\s*)["']daphne["']""")


def _texts():
    yield from (ROOT / name for name in ("Procfile", "Makefile", "README.md"))
    yield from sorted((ROOT / "docs").rglob("*.md"))
    yield from sorted((ROOT / "deploy").rglob("*"))


def _sources():
    for folder in ("bench", "demo", "tests", *(p.name for p in ROOT.iterdir() if (p / "apps.py").exists())):
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_the_procfile_and_make_run_start_zeus_ws_serve():
    ws = [line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("ws:")]
    assert len(ws) == 1 and ws[0].split(":", 1)[1].split()[:3] == ["python", "-m", "zeus.ws_serve"]
    recipe = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "-m zeus.ws_serve" in recipe and not BARE_COMMAND.search(recipe)


def test_no_document_tells_anyone_to_start_bare_daphne():
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _texts()
        if path.is_file()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if BARE_COMMAND.search(line)
    ]
    assert found == []


def test_no_code_starts_the_daphne_executable():
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _sources()
        if path.resolve() != Path(__file__).resolve()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if BARE_EXECUTABLE.search(line)
    ]
    assert found == []

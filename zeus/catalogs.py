"""Compiling the translation catalogs (`locale/<lang>/LC_MESSAGES/*.po` → `.mo`) with Babel, so a fresh machine
needs no GNU gettext: `make messages` (run by `make run` and `make test`) and the test suite call this."""

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po


def catalogs(locale_dir: Path) -> list[Path]:
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_catalogs(locale_dir: Path, *, force: bool = False) -> list[Path]:
    """Writes each `.mo` that is missing or older than its `.po`; returns the ones written."""
    written = []
    for po in catalogs(locale_dir):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parts[-3])
        # Fuzzy entries are guesses gettext would not use either; Django's compilemessages leaves them out too.
        tmp = mo.with_suffix(".mo.tmp")
        with tmp.open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        tmp.replace(mo)
        written.append(mo)
    return written

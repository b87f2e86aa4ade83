"""Every text a page shows goes through the translation catalog, and Vietnamese has every entry.

Two nets: a template text written outside `{% translate %}` / `{% blocktranslate %}` fails the first test, and
a marked string (template or Python) without a Vietnamese translation in locale/vi fails the second. A string
added without running `manage.py makemessages` and translating it therefore cannot slip through.
"""

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_python
from babel.messages.pofile import read_po
from django.template.base import Lexer, TokenType
from django.utils.translation.template import templatize

from zeus.catalogs import compile_catalogs

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".venv", "node_modules", "staticfiles", "tests", "bench", ".git", "artifacts"}
APPS = ["zeus", "assets", "goals", "plans", "suggestions", "chat", "demo", "templates"]
# Words that are the same in every language: product names, a key's shape, a date pattern.
UNTRANSLATED_OK = {"Zeus", "sk-ant-…", "SePay", "DD/MM/YYYY"}
TEXT_ATTRIBUTES = {"aria-label", "placeholder", "title", "alt"}


def project_files(pattern: str) -> list[Path]:
    out = []
    for app in APPS:
        for path in (ROOT / app).rglob(pattern):
            if not SKIP_DIRS.intersection(path.relative_to(ROOT).parts):
                out.append(path)
    return sorted(out)


def templates() -> list[Path]:
    """The pages people read. The staff's admin templates (templates/admin/) stay in English, like the rest of
    the admin Zeus adds to."""
    return [p for p in project_files("*.html") if "templates" in p.parts and "admin" not in p.parts]


class _Texts(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "style"}:
            self._skip += 1
        for name, value in attrs:
            if name in TEXT_ATTRIBUTES and value:
                self.found.append(value)
            if name == "value" and tag == "input" and dict(attrs).get("type") in {"submit", "button"}:
                self.found.append(value or "")

    def handle_endtag(self, tag):
        if tag in {"script", "style"}:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.found.append(data)


def untranslated_texts(source: str) -> list[str]:
    """Texts with letters that a template writes outside the translation tags (variables and tags removed)."""
    skeleton, depth = [], 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0]
            if name in {"blocktranslate", "blocktrans", "comment", "verbatim"}:
                depth += 1
            elif name in {"endblocktranslate", "endblocktrans", "endcomment", "endverbatim"}:
                depth -= 1
            skeleton.append(" ")  # a tag may sit inside an HTML tag (`<details{% if x %} open{% endif %}>`)
        elif token.token_type == TokenType.TEXT and not depth:
            skeleton.append(token.contents)
        else:
            skeleton.append("\x00")
    parser = _Texts()
    parser.feed("".join(skeleton))
    out = []
    for text in parser.found:
        words = " ".join(re.sub(r"[\x00·—|:()]", " ", text).split())
        if re.search(r"[^\W\d_]", words) and words not in UNTRANSLATED_OK:
            out.append(words)
    return out


def test_the_scanner_sees_a_text_left_outside_the_tags():
    assert untranslated_texts('<p>Hello {{ name }}</p><button aria-label="Close">x</button>') == [
        "Hello",
        "Close",
        "x",
    ]
    assert untranslated_texts('{% load i18n %}<p>{% translate "Hello" %} {{ name }}</p>') == []
    assert untranslated_texts("{% blocktranslate %}Hi {{ n }}{% endblocktranslate %}") == []


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_template_text_is_marked_for_translation(path):
    assert untranslated_texts(path.read_text()) == []


def marked_in_templates() -> set:
    ids = set()
    for path in templates():
        # templatize writes the template as pseudo-Python for xgettext; babel's tokenizer needs no indentation.
        code = "\n".join(line.lstrip() for line in templatize(path.read_text()).splitlines())
        ids |= _python_ids(code)
    return ids


def _python_ids(code: str) -> set:
    keywords = {"gettext": None, "gettext_lazy": None, "_": None, "ngettext": (1, 2), "ngettext_lazy": (1, 2),
                "pgettext": ((1, "c"), 2), "pgettext_lazy": ((1, "c"), 2)}  # fmt: skip
    ids = set()
    for _lineno, _funcname, messages, _comments in extract_python(io.BytesIO(code.encode()), keywords, [], {}):
        if isinstance(messages, tuple):
            messages = tuple(m for m in messages if m is not None)
            ids.add(messages[0] if len(messages) == 1 else messages)
        elif messages:
            ids.add(messages)
    return ids


def marked_in_python() -> set:
    ids = set()
    for path in project_files("*.py"):
        if "migrations" in path.parts:
            continue
        ids |= _python_ids(path.read_text())
    return ids


def vietnamese() -> dict:
    with (ROOT / "locale/vi/LC_MESSAGES/django.po").open("rb") as f:
        catalog = read_po(f, locale="vi")
    return {m.id: m for m in catalog if m.id}


def test_every_marked_string_has_a_vietnamese_translation():
    catalog = vietnamese()
    marked = marked_in_templates() | marked_in_python()
    assert {"Transactions", "Choose one of: %(choices)s."} <= marked  # the extraction sees both kinds of source
    missing = []
    for msgid in sorted(marked, key=str):
        entry = catalog.get(msgid)
        if (
            entry is None
            or "fuzzy" in entry.flags
            or not all(entry.string if isinstance(entry.string, tuple) else [entry.string])
        ):
            missing.append(msgid)
    assert missing == [], "run `manage.py makemessages -l vi -l en` and translate these"


def test_the_catalogs_compile_without_gnu_gettext(tmp_path):
    source = ROOT / "locale/vi/LC_MESSAGES/django.po"
    target = tmp_path / "vi/LC_MESSAGES"
    target.mkdir(parents=True)
    (target / "django.po").write_bytes(source.read_bytes())
    assert compile_catalogs(tmp_path) == [target / "django.mo"]
    assert compile_catalogs(tmp_path) == []  # up to date: nothing rewritten
    from gettext import GNUTranslations

    with (target / "django.mo").open("rb") as f:
        assert GNUTranslations(f).gettext("Transactions") == "Giao dịch"


def scripts() -> list[Path]:
    apps = [p for p in project_files("*.js") if "static" in p.parts]
    return apps + [p for p in sorted((ROOT / "static").rglob("*.js")) if "vendor" not in p.parts]


def test_every_script_string_has_a_vietnamese_translation():
    from babel.messages.extract import extract_javascript

    with (ROOT / "locale/vi/LC_MESSAGES/djangojs.po").open("rb") as f:
        catalog = {m.id: m for m in read_po(f, locale="vi") if m.id}
    keywords = {"gettext": None, "ngettext": (1, 2)}
    marked = set()
    for path in scripts():
        for _line, _func, message, _comments in extract_javascript(io.BytesIO(path.read_bytes()), keywords, [], {}):
            if isinstance(message, list | tuple):
                message = tuple(m for m in message if m)
            if message:
                marked.add(message)
    assert {"Writing…", "New reply", ("%(count)s new notification", "%(count)s new notifications")} <= marked
    missing = [m for m in marked if m not in catalog or not all(
        catalog[m].string if isinstance(catalog[m].string, tuple) else [catalog[m].string]
    )]  # fmt: skip
    assert missing == [], "run `manage.py makemessages -d djangojs -l vi -l en` and translate these"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_vietnamese_catalogs_have_no_fuzzy_and_no_empty_entry(domain):
    """`msgfmt --check` and more: an entry nobody marks any more still ships, so it must read right too."""
    with (ROOT / f"locale/vi/LC_MESSAGES/{domain}.po").open("rb") as f:
        catalog = read_po(f, locale="vi")
    assert not catalog.fuzzy
    fuzzy = [m.id for m in catalog if m.id and "fuzzy" in m.flags]
    empty = [m.id for m in catalog if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string])]
    assert (fuzzy, empty) == ([], [])

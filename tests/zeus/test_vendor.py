"""The vendored browser libraries are the files the project pinned, with their licences beside them."""

import hashlib
from pathlib import Path

import pytest

VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor"

PINNED = {
    "chart.js/chart.umd.min.js": "87364cc2b2a76a6684929e7d6b80b18a897794db38400caff1fcf1791c6925d2",
}


@pytest.mark.parametrize("path,digest", PINNED.items())
def test_the_vendored_file_is_the_pinned_one(path, digest):
    assert hashlib.sha256((VENDOR / path).read_bytes()).hexdigest() == digest
    assert digest in (VENDOR / "README.md").read_text()


def test_each_vendored_library_keeps_its_licence():
    for path in PINNED:
        licence = (VENDOR / path).parent / "LICENSE.md"
        assert "Permission is hereby granted" in licence.read_text()

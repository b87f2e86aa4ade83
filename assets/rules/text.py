"""Folding text for matching: case and diacritics do not matter ("Phở" matches "PHO", "Đà Nẵng" matches
"da nang"). Pure functions."""

import re
import unicodedata

# NFKD splits "ồ" into "o" plus combining marks, but "đ" is a letter of its own, not a d with a mark.
_LETTERS = str.maketrans({"đ": "d", "Đ": "d", "ð": "d", "ø": "o", "ł": "l", "ß": "ss"})
_SPACE = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lower case, without diacritics, whitespace collapsed."""
    if (text or "").isascii():  # most bank texts and merchant names: nothing to decompose
        return _SPACE.sub(" ", (text or "").lower()).strip()
    decomposed = unicodedata.normalize("NFKD", (text or "").translate(_LETTERS))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACE.sub(" ", stripped.casefold()).strip()


def words(text: str) -> str:
    """Folded, with punctuation read as spaces and padded with spaces: a keyword matches whole words only
    (" bar " is not found in " barber ")."""
    return f" {_SPACE.sub(' ', re.sub(r'[^0-9a-z]+', ' ', fold(text))).strip()} "

"""Folding text for matching: case and diacritics do not matter ("Phở" matches "PHO", "Đà Nẵng" matches
"da nang"). Pure functions."""

import re
import unicodedata

# NFKD splits "ồ" into "o" plus combining marks, but "đ" is a letter of its own, not a d with a mark.
_LETTERS = str.maketrans({"đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "ß": "ss"})
_SPACE = re.compile(r"\s+")
_NOT_WORD = re.compile(r"[^0-9a-z]+")


class _Marks(dict):
    """A str.translate table that drops combining marks, filled in as characters are met: the text is
    stripped at C speed, not one Python call a character (an import folds every row's description)."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.combining(chr(code)) else code
        self[code] = kept
        return kept


_DROP_MARKS = _Marks()


def fold(text: str) -> str:
    """Lower case, without diacritics, whitespace collapsed."""
    text = text or ""
    if not text.isascii():  # ASCII has no marks and folds to itself: casefold is lower
        text = unicodedata.normalize("NFKD", text.translate(_LETTERS)).translate(_DROP_MARKS)
    return _SPACE.sub(" ", text.casefold()).strip()


def words(text: str) -> str:
    """Folded, with punctuation read as spaces and padded with spaces: a keyword matches whole words only
    (" bar " is not found in " barber ")."""
    return padded_words(fold(text))


def padded_words(folded: str) -> str:
    """`words` of a text already folded."""
    return f" {_SPACE.sub(' ', _NOT_WORD.sub(' ', folded)).strip()} "

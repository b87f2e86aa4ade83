"""How a CSV file's bytes become text: its encoding (UTF-8 with or without BOM, UTF-16 with or without BOM,
else Shift JIS for Japanese text, Windows-1251 for Cyrillic text, Windows-1258 for Vietnamese text,
Windows-1250 for Central European text or Windows-1252) and its delimiter (`,` `;`, tab or `~`). Pure."""

import codecs
import csv
import io
import re
from typing import BinaryIO

_CHUNK = 1024 * 1024
# Windows-1258 writes Vietnamese tones as combining marks after the letter: grave, acute, hook, tilde and dot
# below sit at bytes that Windows-1252 spends on Ì ì Ò Þ ò, which Western bank exports almost never hold
# straight after a vowel. A tone marks a vowel only: Italian's `lunedì`, `Niccolò` put theirs after a consonant.
_CP1258_TONES = re.compile(rb"[AEIOUYaeiouy\xc2\xe2\xca\xea\xd4\xf4\xd5\xf5\xdd\xfd\xc3\xe3][\xcc\xec\xd2\xde\xf2]")
# Windows-1251 writes Cyrillic letters at 0xC0-0xFF (and Ukrainian's own letters just below): words of
# four and more such bytes in a row, where Windows-1252's accented letters stand one or two at a time among
# ASCII ones.
_CP1251_WORD = re.compile(rb"[\xc0-\xff\xa5\xaa\xaf\xb2-\xb4\xba\xbf]{4,}")
_HIGH = re.compile(rb"[\x80-\xff]")
# Bytes Windows-1258 leaves undefined, where Windows-1250 writes Czech and Slovak letters (Š Ť Ž Ź š ť ž): beside
# what looks like a tone (Czech's `ň` after `e` is Windows-1258's dot below), the text is Central European.
_NOT_CP1258 = re.compile(rb"[\x8a\x8d-\x8f\x9a\x9d\x9e]")
# Windows-1250's Czech and Slovak letters at bytes Windows-1252 gives Western accents that never stand so: `č`
# (0xE8, `è`) beside an accented vowel (`účet`, `číslo`, `částka`: no Western word puts `è` next to `á í é ú ý`),
# `ě` (0xEC, `ì`) between a consonant and a letter (`měna`, `věc`: Italian's `ì` ends its words, and a
# Vietnamese tone follows a vowel), `ř` (0xF8, `ø`) before `í á é` (`při`, `příjem`: Danish `ø` never). Found
# without `š`, `ž` or `ť` (ČSOB's export), they say the text is Central European.
_CP1250_LETTERS = re.compile(
    rb"[\xe1\xed\xe9\xfa\xfd]\xe8|\xe8[\xe1\xed\xe9\xfa\xfd]|[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]\xec[A-Za-z]|\xf8[\xe1\xed\xe9]"
)
# Shift JIS (Windows' cp932) writes kana, kanji and full-width symbols (`※`, `㈱`, `￥`) as two bytes, the first
# 0x81-0x9F or 0xE0-0xFC, and half-width katakana as one byte 0xA1-0xDF. Western and Cyrillic bytes read as
# cp932 mostly fail, or land in the private-use area (Cyrillic's lower-case letters at 0xF0-0xFF); where they
# do not, an accented letter before an ASCII one makes a lone kanji among Latin letters (`Datenträger`), and
# Cyrillic capitals make half-width katakana; full-width kana would take a Windows-1252 low quote or florin
# (0x82, 0x83) before a letter. The decoding is trusted only when no character is a C1 control or private use
# (a user-defined character, which no reader can check either), some are full-width kana, and hardly any
# character outside ASCII stands alone beside a Latin letter.
_NOT_JAPANESE = re.compile(r"[\x80-\x9f\ue000-\uf8ff]")
_OUTSIDE_ASCII = re.compile(r"[^\x00-\x7f]")
_AMONG_LATIN = re.compile(r"(?<=[A-Za-z])[^\x00-\x7f](?![^\x00-\x7f])|(?<![^\x00-\x7f])[^\x00-\x7f](?=[A-Za-z])")
_KANA = re.compile(r"[\u3041-\u30fa\u30fc-\u30ff]")
# HDFC's card statement as text separates its cells by `~`; another file's text may hold one, seldom as often as
# its own separator (a tie goes to the separators listed first).
DELIMITERS = (",", ";", "\t", "~")


def encoding_of(source: BinaryIO, head: bytes) -> str:
    """The encoding to read the whole file with; `source` is read through once when there is no BOM."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = head[:4096]
    if sample.count(b"\x00") > len(sample) // 4:
        odd_nuls = sample[1::2].count(b"\x00")
        return "utf-16-le" if odd_nuls > sample[0::2].count(b"\x00") else "utf-16-be"
    decoder = codecs.getincrementaldecoder("utf-8")()
    tones = cyrillic = high = not_vietnamese = 0

    def count(chunk: bytes) -> None:
        nonlocal tones, cyrillic, high, not_vietnamese
        tones += len(_CP1258_TONES.findall(chunk))
        not_vietnamese += len(_NOT_CP1258.findall(chunk))
        cyrillic += sum(len(word) for word in _CP1251_WORD.findall(chunk))
        high += len(_HIGH.findall(chunk))

    try:
        while chunk := source.read(_CHUNK):
            count(chunk)
            decoder.decode(chunk)
        decoder.decode(b"", final=True)
        return "utf-8"
    except UnicodeDecodeError:
        while chunk := source.read(_CHUNK):
            count(chunk)
        source.seek(0)
        if _is_shift_jis(source):
            return "cp932"
        # Most of the high bytes in Cyrillic words: Windows-1251 (its letters would pass for Vietnamese tones).
        if cyrillic * 2 > high:
            return "cp1251"
        if tones and not_vietnamese:
            return "cp1250"
        # Read again only for a file that is none of the above: UTF-8 files, the most, pay nothing for it.
        central = _count(source, _CP1250_LETTERS)
        if central and central * 2 >= tones:  # a Vietnamese file's tones far outnumber a chance match
            return "cp1250"
        return "cp1258" if tones else "cp1252"
    finally:
        source.seek(0)


def _count(source: BinaryIO, pattern: re.Pattern) -> int:
    """How often `pattern` matches in the whole file, read from its start (a match across two chunks aside)."""
    source.seek(0)
    found = 0
    while chunk := source.read(_CHUNK):
        found += len(pattern.findall(chunk))
    return found


def _is_shift_jis(source: BinaryIO) -> bool:
    """Whether the whole file reads as Shift JIS with its text outside ASCII Japanese words (see _KANA)."""
    decoder = codecs.getincrementaldecoder("cp932")()
    kana = outside_ascii = among_latin = 0
    try:
        while chunk := source.read(_CHUNK):
            text = decoder.decode(chunk)
            if _NOT_JAPANESE.search(text):
                return False
            kana += len(_KANA.findall(text))
            outside_ascii += len(_OUTSIDE_ASCII.findall(text))
            among_latin += len(_AMONG_LATIN.findall(text))
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return bool(kana) and among_latin * 10 < outside_ascii


def delimiter_of(head: bytes, encoding: str) -> str:
    """The delimiter used most in the first lines, outside quotes; a comma when none is."""
    text = head.decode(encoding, errors="ignore")
    lines = text.splitlines()[:20]
    text = re.sub(r'"[^"\n]*"', "", "\n".join(lines[:-1] if len(lines) > 1 else lines))
    counts = {d: text.count(d) for d in DELIMITERS}
    if counts["\t"] and counts[","] and not re.search(r"[^,\n]\t", text):
        # A tab only at a line's start or after a comma pads a comma-separated cell (China Merchants Bank's
        # card export writes `\t2016-01-31,`, which keeps a spreadsheet from reading the cell as a number).
        counts["\t"] = 0
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def csv_reader(source: BinaryIO, head: bytes):
    """A csv.reader over the whole file in its own encoding and delimiter."""
    encoding = encoding_of(source, head)
    text = io.TextIOWrapper(source, encoding=encoding, newline="", errors="strict")
    return csv.reader(text, delimiter=delimiter_of(head, encoding))

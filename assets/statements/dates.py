"""The dates banks write in their CSV and XLSX exports (`2026-11-30`, `30/11/2026`, `30.11.26`, `30 Nov 2026`, OFX's
`20261130120000[0:GMT]`), read day first unless told otherwise. Pure."""

import datetime as dt
import re

from assets.rules.text import fold

# `2012:03:01` (Danske Bank Lithuania); `2019.04.19.` and `19.04.2019.`, the dotted dates' closing dot as
# Hungarian and Croatian write it (only after a dot: `2019-04-19.` is no date).
_YMD = re.compile(r"^(\d{4})([-/.:]?)(\d{1,2})\2(\d{1,2})(?:(?<=\.\d)\.|(?<=\.\d\d)\.)?$")
_DMY = re.compile(r"^(\d{1,2})([-/.])(\d{1,2})[-/.](\d{2}|\d{4})(?:(?<=\.\d\d)\.|(?<=\.\d{4})\.)?$")
# Months by their first letters (folded: `août`, `mär`) as banks write them in English, Romanian (ING's `31 iulie
# 2021`), German, Dutch, French, Spanish, Italian and Portuguese: no three letters name two months across these
# languages but French `juin` and `juillet`, told by their fourth.
_MONTHS = {
    "jan": 1, "ian": 1, "ene": 1, "gen": 1, "feb": 2, "fev": 2, "mar": 3, "maa": 3, "apr": 4, "abr": 4, "avr": 4,
    "may": 5, "mai": 5, "mei": 5, "mag": 5, "jun": 6, "iun": 6, "giu": 6, "juin": 6, "jul": 7, "iul": 7, "lug": 7,
    "juil": 7, "aug": 8, "ago": 8, "aou": 8, "sep": 9, "set": 9, "oct": 10, "okt": 10, "ott": 10, "out": 10,
    "nov": 11, "noi": 11, "dec": 12, "dez": 12, "dic": 12,
}  # fmt: skip
_DMONY = re.compile(r"^(\d{1,2})\.?[-/ ]([a-z]{3,})\.?[-/ ,]+(\d{2}|\d{4})$")
# The month's name first, as American English writes it (Etsy's `October 31, 2025`, `Oct. 31, 2025`).
_MONDY = re.compile(r"^([a-z]{3,})\.? (\d{1,2}),? (\d{4})$")
# An ISO 8601 datetime (`2026-11-30T14:02:37`): the day before its `T`.
_ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T")
# OFX's own datetime written into a CSV (Chase's `20091224120000[0:GMT]`): the day, its time and its zone.
_OFX_DATETIME = re.compile(r"^(\d{8})\d{6}(?:\.\d{1,3})?\[[+-]?\d{1,2}(?:\.\d\d)?(?::[A-Za-z]{1,5})?\]$")
# Japanese banks' era dates (SMBC's `R03.03.01`, `令和3年3月1日`: the third year of Reiwa, 2021; the first year
# written `元`): the year before each era's first, its first day and the first day of the next era.
_ERAS = {
    "r": (2018, dt.date(2019, 5, 1), dt.date.max), "h": (1988, dt.date(1989, 1, 8), dt.date(2019, 5, 1)),
    "s": (1925, dt.date(1926, 12, 25), dt.date(1989, 1, 8)),
}  # fmt: skip
_ERA_NAMES = {"令和": "r", "平成": "h", "昭和": "s"}
# A common-era date in Japanese or Chinese (EPOS's `2013年12月1日`).
_CJK_YMD = re.compile(r"^(\d{4})年(\d{1,2})月(\d{1,2})日$")
_ERA_DATE = re.compile(r"^(?:([rhs])(\d{1,2})[-/.]|(令和|平成|昭和)(\d{1,2}|元)年)(\d{1,2})[-/.月](\d{1,2})日?$", re.I)


def _year(year: int) -> int:
    """A year as written: one of the Buddhist era (Thai banks' `02/01/2569`, 543 years ahead) is the common era's."""
    return year - 543 if 2400 <= year <= 2700 else year


def _era_date(match: re.Match) -> dt.date:
    era = (match[1] or _ERA_NAMES[match[3]]).lower()
    before, first, next_first = _ERAS[era]
    year = match[2] or match[4]
    day = dt.date(before + (1 if year == "元" else int(year)), int(match[5]), int(match[6]))
    if not first <= day < next_first:
        raise ValueError(match[0])
    return day


def read_date(text: str, *, day_first: bool = True) -> dt.date:
    """`2026-11-30`, `20261130`, `2026.11.30`, `30/11/2026`, `30-11-26`, `30.11.2026`, `30 Nov 2026`, `Nov 30,
    2026`, with or without a time after it, OFX's `20261130120000[0:GMT]`, a Japanese era's `R03.03.01`,
    `2013年12月1日` and a Buddhist era's year (`02/01/2569`); ValueError for anything else."""
    text = (text or "").strip()
    head = text.split("T")[0] if _ISO_DATETIME.match(text) else (text.split() or [""])[0]
    head = match[1] if (match := _OFX_DATETIME.match(head)) else head
    if match := _ERA_DATE.match(head):
        return _era_date(match)
    match = _YMD.match(head) or _CJK_YMD.match(head)
    if match and match.re is _CJK_YMD:
        return dt.date(int(match[1]), int(match[2]), int(match[3]))
    if match:
        return dt.date(_year(int(match[1])), int(match[3]), int(match[4]))
    match = _DMY.match(head)
    if match:
        first, second, year = int(match[1]), int(match[3]), int(match[4])
        year = year + 2000 if year < 100 else _year(year)
        day, month = (first, second) if (day_first or first > 12) and second <= 12 else (second, first)
        return dt.date(year, month, day)
    match = _DMONY.match(fold(text.split(" ", 3)[0] if "-" in text else " ".join(text.split()[:3])))
    month = match and (_MONTHS.get(match[2][:4]) or _MONTHS.get(match[2][:3]))
    if month:
        year = int(match[3]) + 2000 if len(match[3]) == 2 else _year(int(match[3]))
        return dt.date(year, month, int(match[1]))
    match = _MONDY.match(fold(" ".join(text.split()[:3])))
    if month := match and (_MONTHS.get(match[1][:4]) or _MONTHS.get(match[1][:3])):
        return dt.date(int(match[3]), month, int(match[2]))
    raise ValueError(text)


def is_date(text: str) -> bool:
    """Whether read_date reads `text` as a date."""
    try:
        read_date(text)
    except ValueError:
        return False
    return True

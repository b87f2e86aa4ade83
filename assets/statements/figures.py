"""How banks write a figure: the decimal mark a file's figures prove, a word or symbol for the currency beside
one, and the figures only that mark can read. Pure."""

import re
from collections.abc import Iterable
from decimal import Decimal

from zeus.money import CURRENCY_EXPONENTS

# The apostrophes Swiss figures group thousands by (`9'766.50`), as a keyboard, a word processor (U+2019) or
# a spreadsheet's locale (U+02BC) writes one: never a decimal mark.
APOSTROPHES = "'\u2019\u02bc"
# A whole cell that is a figure (a sign or brackets aside): digits with `.`, `,`, an apostrophe or a space
# between them.
_BARE_FIGURE = re.compile(rf"^\d{{1,3}}(?:[.,{APOSTROPHES} ]\d{{3}})*(?:[.,]\d+)?$|^\d+(?:[.,]\d+)?$")


def is_money_figure(cell: str) -> bool:
    """Whether a cell is a figure written as money is, with a mark in it (`200.00`, `1,250`, `150.000`), which
    a cheque's or a reference's number (`123456`) has not."""
    text = cell.replace("\u00a0", " ").strip().strip("()").lstrip("+-").strip()
    return bool(_BARE_FIGURE.match(text)) and not text.isdigit()


# A figure's side written after it, as Indian, Indonesian and Malaysian banks do (`25,000.00 Dr`, `1.55 CR`,
# `50,000.00 DB`), or as a letter after a space, as Banco do Brasil does (`5,65 C`, `200,00 D`): a debit is money
# out and a credit money in, whatever the column's other figures say.
_SIDE = re.compile(r"(?<=\d)(?:\s*(dr|db|cr)\.?|\s+([dc]))$", re.IGNORECASE)


# A sign written after the figure (`1.234,56-`, as SAP and older German exports write it), or after the currency
# that opens it (`USD -12.50`, `$-3.00`).
_SIGN_AFTER = re.compile(
    r"^(?P<figure>\d[\d.,' ]*+)(?P<sign>[+-])$|^(?P<unit>[^\d\s+()-]{1,4})\s*(?P<sign2>[+-])\s*(?=\d)"
)


# A note in brackets after a figure (JD's `14.70(已退款0.80)`: 0.80 of it refunded, a line of its own): the figure is
# what stands before it. A bracket holding a letter, so that `(150.00)`, a minus, is not one.
# Full-width brackets (U+FF08, U+FF09) as Chinese text writes them, or ASCII ones.
_NOTE_AFTER = re.compile(r"^(?P<figure>[^()\uff08\uff09]*\d)\s*[(\uff08](?=[^)\uff09]*[^\W\d_])[^)\uff09]*[)\uff09]$")


def stands_for_nothing(text: str) -> bool:
    """Whether a cell is blank, or a dash or two standing for nothing (VPBank's `--`, PayPay's `-`)."""
    return not text.strip().strip("-\u2013\u2014")


def minus_undone(text: str) -> str:
    """A figure written with two minus signs, the minus of a negative one (USAA's money in, `--400`), with the
    plus it stands for (`+400`); any other text as written."""
    return f"+{text[2:]}" if text.startswith("--") and text[2:3].isdigit() else text


def without_note(text: str) -> str:
    """A figure cell without the note in brackets written after the figure, if it has one."""
    if not text.rstrip().endswith((")", "\uff09")):
        return text  # the one check most figures need
    return match["figure"] if (match := _NOTE_AFTER.match(text.strip())) else text


def sign_first(text: str) -> str:
    """A figure with its sign written after it or after its currency, with the sign first (`-1.234,56`,
    `-USD 12.50`), and one with two minus signs with its plus (minus_undone); any other text as written."""
    text = minus_undone(text)
    match = _SIGN_AFTER.match(text)
    if match is None:
        return text
    if match["figure"]:
        return match["sign"] + match["figure"].rstrip()
    return f"{match['sign2']}{match['unit']} {text[match.end() :]}"


def side_written(text: str) -> tuple[str, int]:
    """(the figure without its side, -1 where a debit is written after it, 1 a credit, 0 neither)."""
    match = _SIDE.search(text)
    if match is None:
        return text, 0
    return text[: match.start()], -1 if (match[1] or match[2]).lower() in ("dr", "db", "d") else 1


def _mark_of(cell: str) -> tuple[str, bool] | None:
    """The decimal mark one figure proves, and whether it is written as money is: the later of `.` and `,`
    where both are written (`1,234.56`) or a lone one followed by one or two digits (`-144,75`); a lone one
    followed by four or more (`0.848252`, `1,0856`) proves its mark less surely, since a rate, a quantity
    or a reference written by a machine (`18753493.6094` in a description) need not follow the money's
    convention. None where it could group thousands (`29.000`, `1,000`), is written twice (`1,234,56` would
    group and mark with one sign) or the cell is no figure."""
    text = cell.replace("\u00a0", " ").strip().strip("()").lstrip("+-").strip()
    if not _BARE_FIGURE.match(text):
        return None
    marks = [c for c in text if c in ".,"]
    if len(set(marks)) == 2:
        return marks[-1], True
    if len(marks) == 1 and (places := len(text) - text.index(marks[0]) - 1) != 3:
        return marks[0], places < 3
    return None


def decimal_mark(cells: Iterable[str], *, unsettled: str | None = None) -> str | None:
    """A file's decimal mark (a file writes one), told by its money's figures where any tells, else by its
    other figures (Viseca's `1.000000` exchange rate makes its `29.000` twenty-nine); None where the figures
    that tell disagree (`1.5` beside `2,25`), and `unsettled` where none tells: the caller's own reading then
    stands (the figure reader's per figure, the column inference's `.` for whole figures and `1,234`-style
    groups)."""
    told = [found for cell in cells if (found := _mark_of(cell))]
    surest = any(sure for _, sure in told)
    marks = {mark for mark, sure in told if sure or not surest}
    if len(marks) > 1:
        return None
    return marks.pop() if marks else unsettled


# An unsigned figure with one separator and three digits after it: thousands, or a decimal of three places.
_LONE_THREE = re.compile(r"^\d{1,3}[.,]\d{3}$")


def by_mark(text: str, mark: str | None, currency: str) -> Decimal | None:
    """An unsigned figure with one separator and three digits after it (`29.000`, `1,000`) read as a decimal
    where that separator is the file's `mark`; None for any other figure, which reads by its own rule, and
    in a currency with no minor unit (a dong's `150.000` groups thousands, whatever another cell says)."""
    if mark and CURRENCY_EXPONENTS.get(currency.upper(), 2) and _LONE_THREE.match(text) and mark in text:
        return Decimal(text.replace(mark, "."))
    return None


# Currency words and symbols banks write beside a figure (`-144,75 kr`, `€ 12,00`, `1 250 zł`), and the
# currencies each may stand for: beside the row's own currency they are read past, never guessed at. Kept apart
# from zeus.money's marks for typed amounts, which hold only six of these (and `$` as USD alone): the rest
# (`zł`, `ft`, `lei`, `₹`...) added there would make a typed `12 ft` an amount in forints instead of refused.
_DOLLARS = ("USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "TWD")
_CURRENCY_WORDS = {
    "kr": ("SEK", "NOK", "DKK", "ISK"), "kr.": ("SEK", "NOK", "DKK", "ISK"), "zł": ("PLN",), "zl": ("PLN",),
    "₫": ("VND",), "đ": ("VND",), "vnđ": ("VND",), "$": _DOLLARS, "us$": ("USD",), "€": ("EUR",), "£": ("GBP",),
    "¥": ("JPY", "CNY"), "₹": ("INR",), "fr.": ("CHF",), "kč": ("CZK",), "ft": ("HUF",), "lei": ("RON",),
    "₴": ("UAH",), "грн": ("UAH",), "грн.": ("UAH",), "₽": ("RUB",),
    "r$": ("BRL",), "₩": ("KRW",), "฿": ("THB",), "₺": ("TRY",), "₪": ("ILS",),
    # Shift JIS puts the yen sign at ASCII's backslash: a Japanese export's `\7,000` read as cp932.
    "\\": ("JPY",),
}  # fmt: skip
_WORDED = re.compile(
    rf"^(?P<pre>[^\d\s]{{1,4}})?\s*(?P<num>\d(?:[\d.,{APOSTROPHES}]|\s(?=\d))*)\s*(?P<post>[^\d\s]{{1,4}})?$"
)
# Thousands grouped by spaces (`2 500,00`, `1 000 000`): the separator after them, if any, is the decimal one.
_SPACED = re.compile(r"^\d{1,3}(?:\s\d{3})+(?:[.,](?:\d{1,2}|\d{4,}))?$")
# Thousands grouped by one kind of apostrophe (`9'766.50`, `1'000`): whatever follows them is the decimal part.
_APOSTROPHED = re.compile(rf"^\d{{1,3}}([{APOSTROPHES}])\d{{3}}(?:\1\d{{3}})*(?:[.,]\d+)?$")


def one_currency(word: str) -> str | None:
    """The currency a word or sign stands for where it stands for one only (`€` EUR, `zł` PLN; never `$` or
    `kr`); None for any other."""
    found = _CURRENCY_WORDS.get(word.strip().casefold(), ())
    return found[0] if len(found) == 1 else None


def without_currency(text: str, currency: str) -> str:
    """An unsigned figure with a word or symbol for the row's `currency` beside it (`144,75 kr` in SEK, `29.00
    CHF`) as the figure alone, and thousands grouped by spaces or apostrophes written without them (`2 500,00`,
    `9'766.50`); anything else as written (a word for another currency is the figure parser's to refuse)."""
    match = _WORDED.match(text)
    if match is None or (match["pre"] and match["post"]):
        return text
    word = (match["pre"] or match["post"] or "").casefold()
    if word and currency.upper() not in _CURRENCY_WORDS.get(word, (word.upper(),) if len(word) == 3 else ()):
        return text
    number = match["num"].strip()
    if _APOSTROPHED.match(number):
        return re.sub(f"[{APOSTROPHES}]", "", number)
    return re.sub(r"\s", "", number) if _SPACED.match(number) else number

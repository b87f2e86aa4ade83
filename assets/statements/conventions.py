"""What a table's first lines (up to inference.LOOKAHEAD of them) say about how to read every line of it,
where a header's words alone cannot: which part of a date is the day, whether a name written over two
columns is the currency and the figure, which column says each line's side (signs.py says which way unsigned
figures run). Pure."""

import datetime as dt
import re
from collections import Counter

from assets.rules.text import fold
from assets.statements import figures
from assets.statements.cell_words import EITHER_WAY, KIND_WAYS, MONEY_IN, MONEY_OUT, SIDE_WORDS
from assets.statements.cells import MINUS, filled
from assets.statements.currency_columns import all_codes
from assets.statements.dates import is_date, read_date
from assets.statements.inference import dates_day_first

# The columns a line's money is written in.
MONEY_KEYS = ("amount", "debit", "credit", "fee", "tax")


# Currencies as Chinese banks name them in a currency column (`人民币`), not by their ISO code.
_CURRENCY_NAMES = {
    "人民币": "CNY", "美元": "USD", "港币": "HKD", "港元": "HKD", "欧元": "EUR", "日元": "JPY", "英镑": "GBP",
}  # fmt: skip


def currency_code(text: str) -> str:
    """A currency cell's ISO code: `usd` is USD, `人民币` is CNY, a sign or word the figure reader knows for one
    currency only is that one (Max's `₪`, BBVA's card `€`); anything else as written, upper case (`$`, `¥`: the
    row's currency check names it); a dash alone none (PayPay's `-` beside a line with no foreign figure)."""
    if figures.stands_for_nothing(text):
        return ""
    text = text.strip()
    return _CURRENCY_NAMES.get(text) or figures.one_currency(text) or text.upper()


def day_first(ahead: list[tuple[int, list[str]]], mapping: dict, *, default: bool) -> bool:
    """The file's own dates say which part is the day, before the account's country guesses."""
    return dates_day_first(filled(ahead, mapping["date"]), default=default)


def one_name_over_two(ahead: list[tuple[int, list[str]]], mapping: dict) -> dict:
    """The mapping with column_mapping.check_mapping's reading of one name over two columns (DEGIRO's `Mutatie`: the
    currency under the name, the figure in the unnamed column beside it) kept only where the named column's
    cells are currency codes; where they are figures (M&S's `Amount`, a `CR` beside a payment in the unnamed
    column) the named column is the amount and names no currency."""
    named = mapping.get("named_amount")
    rest = {k: v for k, v in mapping.items() if k != "named_amount"}
    if named is None or all_codes(filled(ahead, named)):
        return rest
    rest.pop("currency", None)
    return {**rest, "amount": named}


# A day and month written without a year (a card's booking day `07-08` beside its purchase day `2020-07-06`;
# BCA's `'06/07`, after the apostrophe a spreadsheet reads as "this cell is text").
_YEARLESS = re.compile(r"^'?(\d{1,2})[-/.](\d{1,2})\.?$")
# The same written in Japanese, Chinese or Korean, month first by its words (JA Bank's `4月30日`, `4월 30일`).
_MONTH_DAY = re.compile(r"^(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]$")


def _day_and_month(text: str, *, day_first: bool) -> tuple[int, int] | None:
    """A yearless date's day and month, its figures' order `day_first` unless its words say it; None if it is
    no yearless day."""
    text = text.strip()
    if match := _MONTH_DAY.match(text):
        return int(match[2]), int(match[1])
    if match := _YEARLESS.match(text):
        first, second = int(match[1]), int(match[2])
        return (first, second) if day_first else (second, first)
    return None


def _yearless_lines(ahead: list[tuple[int, list[str]]], mapping: dict) -> list[list[str]]:
    """The lines with a figure in the date column when every one of them is a day and month alone, else none (a
    label there, `Starting Balance` under BCA's table, is no day)."""
    date = mapping["date"]
    lines = [r for _, r in ahead if len(r) > date and any(char.isdigit() for char in r[date])]
    return lines if all(_day_and_month(r[date], day_first=True) for r in lines) else []


def yearless(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the date column writes every day without its year."""
    return bool(_yearless_lines(ahead, mapping))


def yearless_day_first(ahead: list[tuple[int, list[str]]], mapping: dict, *, default: bool) -> bool:
    """Whether a yearless date column puts the day first: the first day and month with a part above 12 says
    (China Merchants Bank's `12/29`: month first); else `default`."""
    for line in _yearless_lines(ahead, mapping):
        match = _YEARLESS.match(line[mapping["date"]].strip())
        if match and (int(match[1]) > 12 or int(match[2]) > 12):
            return int(match[1]) > 12
    return default


def year_beside(ahead: list[tuple[int, list[str]]], mapping: dict) -> int | None:
    """The column whose dates give the year of a date column written without one: every filled cell of the
    date column a day and month alone, and exactly one other column a full date on each of those lines;
    else None."""
    date = mapping["date"]
    lines = _yearless_lines(ahead, mapping)
    if not lines:
        return None
    width = min(len(r) for r in lines)
    found = [c for c in range(width) if c != date and all(is_date(r[c].strip()) for r in lines)]
    return found[0] if len(found) == 1 else None


def completed_date(text: str, beside: str, *, day_first: bool) -> dt.date:
    """A yearless day and month (`07-08`) in the year that puts it nearest the line's full date `beside`,
    its parts in that date's order (year-month-day written without its year is month-day); ValueError if it
    is no day and month."""
    full = read_date(beside, day_first=day_first)
    month_first = bool(re.match(r"^\d{4}", beside.strip())) or not day_first
    if (parts := _day_and_month(text, day_first=not month_first)) is None:
        raise ValueError(text)
    day, month = parts
    days = []
    for year in (full.year - 1, full.year, full.year + 1):
        try:
            days.append(dt.date(year, month, day))
        except ValueError:
            continue  # the 29th of February in a year without one, or no such day at all
    if not days:
        raise ValueError(text)
    return min(days, key=lambda d: abs(d - full))


def latest_date(text: str, today: dt.date, *, day_first: bool) -> dt.date:
    """A yearless day and month (`06/07`) where nothing in the file gives its year: the latest such day up to the
    importer's `today` (a statement lists what has happened), as a bank text's yearless day is read; ValueError if
    it is no day and month."""
    if (parts := _day_and_month(text, day_first=day_first)) is None:
        raise ValueError(text)
    day, month = parts
    for year in range(today.year, today.year - 8, -1):  # a 29th of February comes back within eight years
        try:
            found = dt.date(year, month, day)
        except ValueError:
            continue
        if found <= today:
            return found
    raise ValueError(text)


# German banks' sides of the ledger, `S` (Soll, money out) and `H` (Haben, money in), written beside an unsigned
# figure, in a column the Volksbanks' and Raiffeisenbanks' `Umsatzanzeige` leaves unnamed; BCA's `DB` (debet) and
# `CR` in the unnamed column after its `Amount`; `Debit` and `Credit`, `DR` and `CR` under a name Zeus does not know
# (`Type`, `Kind`), and the kinds that say the way (a Japanese prepaid card's, a money manager's:
# cell_words.KIND_WAYS). Not a lone `C` or `D`: Santander Chile's `C` is a cargo.
_SIDES = SIDE_WORDS | KIND_WAYS | {"s", "h", "db"}
# Every word a direction column may say a line's way with.
_WAYS = MONEY_IN | MONEY_OUT | EITHER_WAY | _SIDES


def sides_column(ahead: list[tuple[int, list[str]]], mapping: dict) -> dict:
    """The mapping with the one column its header left out that writes a side (`S` or `H`, `DB` or `CR`, `Debit`
    or `Credit`) on every line with a figure, none of which is signed, as its direction; else the mapping as it
    was."""
    if "amount" not in mapping or "direction" in mapping:
        return mapping
    amount = mapping["amount"]
    lines = [r for _, r in ahead if len(r) > amount and r[amount].strip()]
    if not lines or any(r[amount].strip()[:1] in "+-(" for r in lines):
        return mapping
    taken = {index for key, index in mapping.items() if key != "date_format"}
    width = min(len(r) for r in lines)
    found = [c for c in range(width) if c not in taken and all(fold(r[c]) in _SIDES for r in lines)]
    return {**mapping, "direction": found[0]} if len(found) == 1 else mapping


def silent_sides(ahead: list[tuple[int, list[str]]], mapping: dict) -> dict:
    """The mapping without its direction column where that column is blank on every line with a figure (HDFC's
    card `Debit / Credit`, filled only on a payment, none in the statement): it says no line's way, so the
    figures' own signs and the card's conventions (unsigned_reading) read them. So too where the figures are
    signed and the column names kinds of line, none a way (Cash App's `Transaction Type`: `Sent P2P`, `Cash in`)."""
    if "direction" not in mapping or "amount" not in mapping:
        return mapping
    side, amount = mapping["direction"], mapping["amount"]
    # A figure's line, not the header of a table under this one (HDFC's loans: `Rate of Interest` there).
    lines = [r for _, r in ahead if len(r) > amount and any(char.isdigit() for char in r[amount])]
    words = {fold(r[side]).strip() for r in lines if len(r) > side} - {""}
    signed = any(MINUS.match(figures.sign_first(r[amount].strip())) for r in lines)
    if not lines or (words and not (signed and not words & _WAYS)):
        return mapping
    return {key: index for key, index in mapping.items() if key != "direction"}


# An opening or closing balance, or a turnover, written as a line of the table (BancoPosta's `SALDO INIZIALE`,
# Swedbank Lithuania's `Likutis pradžiai` and `Apyvarta`, Estonia's `Algsaldo`, `Käive` and `lõppsaldo`, a card's
# `Saldovortrag letzte Rechnung`, the balance brought forward from the last bill, Skandiabanken's `INNGÅENDE SALDO`
# and `UTGÅENDE SALDO` with their day, Caixa's `SALDO DIA` after each day's lines, its figure often left blank): a
# figure that is no transaction.
BALANCE_LINE = re.compile(
    r"^\W*(?:saldo (?:iniziale|finale|inicial|final|anterior|dia|do dia)|opening balance|closing balance|anfangssaldo|"
    r"endsaldo|schlusssaldo|saldovortrag(?: letzte rechnung| vorperiode)?|"
    r"so du dau ky|so du cuoi ky|likutis pradziai|likutis pabaigai|apyvarta|algsaldo|kaive|loppsaldo|"
    r"(?:inngaende|utgaende) saldo(?: \d\d\.\d\d\.\d{4})?)\W*$"
)
# A card hold a bank lists among its lines before booking it, said where the text opens (Bankwest's
# `AUTHORISATION ONLY - EFTPOS PURCHASE AT …`, Nordea Sweden's `Reservation Kortköp …`) or ends (mBank's `…
# transakcja nierozliczona`, not settled; Piraeus Bank's `…(DEBIT PURCHASE AUTHORIZATION)`): the money has not
# moved yet.
HOLD = re.compile(
    r"^\W*(?:authori[sz]ation only|reservation kortkop)\b"
    r"|\b(?:transakcja nierozliczona|debit purchase authori[sz]ation)\W*$"
)
# A balance written as a line with no date (Cornèrcard's `Saldo welchen wir am 27.02.2018 bei Ihrer Bank einfordern`,
# what it will collect): `Saldo`, `Solde` open it. English `Balance` does not: a `Balance transfer` is a payment.
UNDATED_BALANCE = re.compile(r"^\W*(?:saldo|solde)\b")
# The title of a summary under the table (Santander Chile's `Resumen comisiones`, the month's fees again).
_SUMMARY = re.compile(r"^(?:resumen|summary|zusammenfassung|tong hop|riepilogo|recapitulatif)\b")


def summary_title(record: list[str]) -> bool:
    """Whether a line is a summary's title alone: one text, written in each cell it fills, with no digit. Asked
    of every line: a line of several texts (every transaction) is told apart before anything is folded."""
    texts = {cell.strip() for cell in record if cell.strip()}
    if len(texts) != 1:
        return False
    title = fold(texts.pop())
    return bool(_SUMMARY.match(title)) and not any(c.isdigit() for c in title)


# The title over a table of lines not booked yet (Postbank's `Umsätze in den nächsten 14 Tagen`, the scheduled
# payments it lists above its `gebuchte Umsätze`; `vorgemerkte Umsätze`; `Pending transactions`).
_NOT_BOOKED_TITLE = re.compile(
    r"^(?:umsatze in den nachsten \d+ tagen|vorgemerkte umsatze|(?:pending|scheduled|upcoming) transactions)\W*$"
)


def not_booked_title(record: list[str]) -> bool:
    """Whether a line is the title alone of a table whose lines the bank has not booked."""
    texts = [cell.strip() for cell in record if cell.strip()]
    return len(texts) == 1 and bool(_NOT_BOOKED_TITLE.match(fold(texts[0])))


def usual_width(ahead: list[tuple[int, list[str]]]) -> int | None:
    """How many cells most of a table's first lines have (a CSV writes each line of its table whole); None
    where no count holds most of them."""
    counts = Counter(len(record) for _, record in ahead)
    if not counts:
        return None
    width, seen = counts.most_common(1)[0]
    return width if seen * 2 > len(ahead) else None


def money_aside(record: list[str], mapping: dict, width: int | None) -> bool:
    """Whether a line whose money columns are empty is short of the table's `width` and holds a figure written
    as money in another column: a cell lost before its money moved it left (Bank of Baroda's anonymised line,
    its 200.00 under `CHQ.NO.`). Read as moving no money, the line would drop a withdrawal without a word."""
    if width is None or len(record) >= width:
        return False
    money = {mapping[key] for key in MONEY_KEYS if key in mapping}
    return any(figures.is_money_figure(cell) for index, cell in enumerate(record) if index not in money)

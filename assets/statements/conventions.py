"""What a table's first lines (up to inference.LOOKAHEAD of them) say about how to read every line of it,
where a header's words alone cannot: which part of a date is the day, whether a name written over two
columns is the currency and the figure, and whether figures written unsigned are money out. Pure."""

import datetime as dt
import re
from collections import Counter

from assets.rules.text import fold
from assets.statements import figures
from assets.statements.cell_words import EITHER_WAY, MONEY_IN, MONEY_OUT, SIDE_WORDS
from assets.statements.currency_columns import all_codes
from assets.statements.dates import is_date, read_date
from assets.statements.inference import dates_day_first, thanks_for_payment

# A figure written with its sign, or negative in brackets (`(150.00)`), as a figure cell opens.
_PLUS = re.compile(r"^\+")
_MINUS = re.compile(r"^\s*(?:-|\()")


# The columns a line's money is written in.
MONEY_KEYS = ("amount", "debit", "credit", "fee", "tax")


def _column(ahead: list[tuple[int, list[str]]], index: int) -> list[str]:
    return [record[index].strip() for _, record in ahead if len(record) > index and record[index].strip()]


# Currencies as Chinese banks name them in a currency column (`人民币`), not by their ISO code.
_CURRENCY_NAMES = {
    "人民币": "CNY", "美元": "USD", "港币": "HKD", "港元": "HKD", "欧元": "EUR", "日元": "JPY", "英镑": "GBP",
}  # fmt: skip


def currency_code(text: str) -> str:
    """A currency cell's ISO code: `usd` is USD, `人民币` is CNY, a sign or word the figure reader knows for one
    currency only is that one (Max's `₪`, BBVA's card `€`); anything else as written, upper case (`$`, `¥`: the
    row's currency check names it)."""
    text = text.strip()
    return _CURRENCY_NAMES.get(text) or figures.one_currency(text) or text.upper()


def day_first(ahead: list[tuple[int, list[str]]], mapping: dict, *, default: bool) -> bool:
    """The file's own dates say which part is the day, before the account's country guesses."""
    return dates_day_first(_column(ahead, mapping["date"]), default=default)


def one_name_over_two(ahead: list[tuple[int, list[str]]], mapping: dict) -> dict:
    """The mapping with column_mapping.check_mapping's reading of one name over two columns (DEGIRO's `Mutatie`: the
    currency under the name, the figure in the unnamed column beside it) kept only where the named column's
    cells are currency codes; where they are figures (M&S's `Amount`, a `CR` beside a payment in the unnamed
    column) the named column is the amount and names no currency."""
    named = mapping.get("named_amount")
    rest = {k: v for k, v in mapping.items() if k != "named_amount"}
    if named is None or all_codes(_column(ahead, named)):
        return rest
    rest.pop("currency", None)
    return {**rest, "amount": named}


# A side column's words for money in, where it names no money out (ICICI's card `BillingAmountSign`).
_CREDIT_SIDES = {"cr", "c", "credit"}


def only_credits_sided(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the side column writes only money in (`CR` on a refund or payment) and leaves the other lines
    blank beside unsigned figures (ICICI's card statement): its blank lines are money out."""
    if "direction" not in mapping or "amount" not in mapping:
        return False
    side, amount = mapping["direction"], mapping["amount"]
    lines = [(r[side].strip() if len(r) > side else "", r[amount].strip()) for _, r in ahead if len(r) > amount]
    lines = [(fold(word), figure) for word, figure in lines if figure]
    if any(_MINUS.match(figure) or _PLUS.match(figure) for _, figure in lines):
        return False
    words = {word for word, _ in lines}
    return "" in words and len(words) > 1 and words - {""} <= _CREDIT_SIDES


def credits_marked(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the amount column marks its money in and leaves the rest bare: no figure written negative or as a
    debit, and some written with a `+` (a card's `+ £1,100.00` payment among unsigned purchases) or as a credit
    (`1,000.00 CR`). Its bare figures are then money out; a direction column, where there is one, says the way."""
    if "amount" not in mapping or "direction" in mapping:
        return False
    cells = _column(ahead, mapping["amount"])
    sides = {figures.side_written(c)[1] for c in cells}
    return (1 in sides or any(map(_PLUS.match, cells))) and -1 not in sides and not any(map(_MINUS.match, cells))


# A card's own words for a purchase and for paying the card off (CGB's `消费`, `还款`, in full-width brackets).
_PURCHASE = ("消费",)
_REPAYMENT = ("还款",)


def _figures_and_texts(ahead: list[tuple[int, list[str]]], mapping: dict) -> list[tuple[str, str]] | None:
    """Each line's figure and text where the amount column has a text beside it and no direction column says
    the way (the card conventions' evidence); None where it has not."""
    if "amount" not in mapping or "description" not in mapping or "direction" in mapping:
        return None
    amount, text = mapping["amount"], mapping["description"]
    lines = [(r[amount].strip(), r[text]) for _, r in ahead if len(r) > max(amount, text)]
    return [(figure, words) for figure, words in lines if figure]


def charges_positive(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the amount column is a card's, writing its charges unsigned and its repayments negative: a
    line named a purchase written unsigned beside one named a repayment written negative, none the other way
    and no figure with a `+`. A bank account paying a card writes that repayment negative too, but its
    purchases negative as well, so the two together are needed."""
    lines = _figures_and_texts(ahead, mapping)
    if lines is None:
        return False
    bought = [bool(_MINUS.match(a)) for a, text in lines if any(w in text for w in _PURCHASE)]
    repaid = [bool(_MINUS.match(a)) for a, text in lines if any(w in text for w in _REPAYMENT)]
    signed_plus = any(_PLUS.match(a) for a, _ in lines)
    return bool(bought) and bool(repaid) and not any(bought) and all(repaid) and not signed_plus


def payment_thanked(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the amount column is a card's, writing its charges positive: a payment the card thanks its owner
    for written negative, no figure with a `+`, and every other figure positive (a bank account paying its card
    writes that payment negative too, but its other spending negative as well)."""
    thanked, others = [], []
    for figure, text in _figures_and_texts(ahead, mapping) or ():
        (thanked if thanks_for_payment(text) else others).append(figure)
    signed = any(_MINUS.match(figure) or _PLUS.match(figure) for figure in others)
    return bool(thanked) and bool(others) and all(_MINUS.match(figure) for figure in thanked) and not signed


# A card's number as a statement prints it, masked or not: `000000XXXXXXXXXX`, `**** 1234`, `3776 60**** *2492`.
_CARD_NUMBER = re.compile(r"^(?=(?:[^\d]*\d){4})[\dXx*•. -]{4,23}$")


# A card named with its number above a table (`Kortnummer 123456******1337`, `Kreditkarte:` beside
# `1234********1234 Kreditkarte`): the name, then the number, in one cell or the next.
_CARD_ABOVE = re.compile(
    r"(?<![a-z])(?:card number|card no|credit card|kartennummer|kreditkarte|kortnummer|kaartnummer|"
    r"numero de carte|numero de tarjeta)\W{0,3}([\dx*•][\dx*•. -]{2,21}[\dx*•])(?![\dx*•])"
)


def card_above(letterhead: list[list[str]]) -> bool:
    """Whether the lines above a table's header name the card whose statement it is, with its number."""
    for record in letterhead:
        text = " ".join(cell.strip() for cell in record if cell.strip()).casefold()
        if any(_CARD_NUMBER.match(match[1]) for match in _CARD_ABOVE.finditer(text)):
            return True
    return False


def card_statement(ahead: list[tuple[int, list[str]]], mapping: dict, card: int | None, *, above: bool = False) -> bool:
    """Whether the amount column is a card statement's, writing its charges positive: a column named for the
    card (`CardId`, `Card number`) holding a card's number on every line (a bank account's card column is
    blank on its transfers; a merchant's report names its customers' cards by token, not number), or the
    card named with its number `above` the table (card_above), no figure written with a `+`, and more
    figures positive than negative (the card's charges outnumber its refunds and repayments not named as such; a
    bank account seen from a card writes its purchases negative)."""
    if (card is None and not above) or "amount" not in mapping or "direction" in mapping:
        return False
    text = mapping.get("description")
    width = max(card or 0, mapping["amount"], text or 0)
    lines = [
        (r[card].strip() if card is not None else "", r[mapping["amount"]].strip(), r[text] if text is not None else "")
        for _, r in ahead
        if len(r) > width and r[mapping["amount"]].strip()
    ]
    if card is not None and not all(_CARD_NUMBER.match(number) for number, _, _ in lines):
        return False
    if not lines or any(_PLUS.match(figure) for _, figure, _ in lines):
        return False
    # A repayment named as one (CMB's `还款`) is no refund: the charges need only outnumber the rest.
    negative = sum(1 for _, figure, words in lines if _MINUS.match(figure) and not any(w in words for w in _REPAYMENT))
    return len(lines) - negative > negative


def charges_named(ahead: list[tuple[int, list[str]]], mapping: dict, *, named: bool) -> bool:
    """Whether the amount column is named for a card's charges (headers.card_charges: `利用金額`, the amount
    used), so a positive figure is a charge and a negative one a refund, unless a figure written with a `+`
    says the column is signed the account's way."""
    if not named or "amount" not in mapping or "direction" in mapping:
        return False
    return not any(_PLUS.match(cell) for cell in _column(ahead, mapping["amount"]))


def unsigned_reading(
    ahead: list[tuple[int, list[str]]],
    mapping: dict,
    card: int | None = None,
    *,
    charges: bool = False,
    card_above: bool = False,
) -> str | None:
    """How the amount column's figures read against their signs: `out` where only money in is marked
    (credits_marked), `reversed` where a card writes charges positive (charges_positive, payment_thanked,
    card_statement with `card` or `card_above`, charges_named with `charges`: its header names a card's
    charges), None as signed."""
    if credits_marked(ahead, mapping) or only_credits_sided(ahead, mapping):
        return "out"
    if charges_named(ahead, mapping, named=charges):
        return "reversed"
    if (
        charges_positive(ahead, mapping)
        or payment_thanked(ahead, mapping)
        or card_statement(ahead, mapping, card, above=card_above)
    ):
        return "reversed"
    return None


# A day and month written without a year (a card's booking day `07-08` beside its purchase day `2020-07-06`;
# BCA's `'06/07`, after the apostrophe a spreadsheet reads as "this cell is text").
_YEARLESS = re.compile(r"^'?(\d{1,2})[-/.](\d{1,2})\.?$")


def _yearless_lines(ahead: list[tuple[int, list[str]]], mapping: dict) -> list[list[str]]:
    """The lines with a figure in the date column when every one of them is a day and month alone, else none (a
    label there, `Starting Balance` under BCA's table, is no day)."""
    date = mapping["date"]
    lines = [r for _, r in ahead if len(r) > date and any(char.isdigit() for char in r[date])]
    return lines if all(_YEARLESS.match(r[date].strip()) for r in lines) else []


def yearless(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the date column writes every day without its year."""
    return bool(_yearless_lines(ahead, mapping))


def yearless_day_first(ahead: list[tuple[int, list[str]]], mapping: dict, *, default: bool) -> bool:
    """Whether a yearless date column puts the day first: the first day and month with a part above 12 says
    (China Merchants Bank's `12/29`: month first); else `default`."""
    for line in _yearless_lines(ahead, mapping):
        match = _YEARLESS.match(line[mapping["date"]].strip())
        if int(match[1]) > 12 or int(match[2]) > 12:
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
    match = _YEARLESS.match(text.strip())
    if match is None:
        raise ValueError(text)
    first, second = int(match[1]), int(match[2])
    month_first = bool(re.match(r"^\d{4}", beside.strip())) or not day_first
    day, month = (second, first) if month_first else (first, second)
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
    match = _YEARLESS.match(text.strip())
    if match is None:
        raise ValueError(text)
    first, second = int(match[1]), int(match[2])
    day, month = (first, second) if day_first else (second, first)
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
# (`Type`, `Kind`). Not a lone `C` or `D`: Santander Chile's `C` is a cargo.
_SIDES = SIDE_WORDS | {"s", "h", "db"}
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
    signed = any(_MINUS.match(figures.sign_first(r[amount].strip())) for r in lines)
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

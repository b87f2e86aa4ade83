"""What a bank's table says about itself where its header does not. Some banks export rows with no header
at all (Austrian banks' CSV: account, text, booking date, value date, signed amount, currency): the columns
are read from the values, and only when that reading is unambiguous (one date column first, exactly one
column of figures, signed on some line: unsigned ones alone leave the direction to the cells' rules). And a
column's dates tell day-first from month-first themselves when any of them has a part above 12
(`3/18/2016` makes `3/6/2016` the sixth of March, whatever the account's country). Pure."""

import itertools
import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

from assets.rules.text import fold
from assets.statements.cell_words import SIDE_WORDS
from assets.statements.dates import is_date
from zeus.money import CURRENCY_EXPONENTS

# A figure as banks write one: `-0,42`, `+1.23`, `-1.001,00`, `5.000,00`, `1,234.56`, `150000`.
_FIGURE = re.compile(r"^[+-]?\d{1,3}(?:[.,' ]?\d{3})*(?:[.,]\d{1,4})?$")
# What makes a column of figures money rather than an account number or a count: a sign or decimals.
_MONEY_MARK = re.compile(r"^[+-]|[.,]\d{1,2}$")
# A figure written with its sign: the one evidence of direction a headless amount column carries itself.
_SIGN = re.compile(r"^[+-]")
_DAY_MONTH = re.compile(r"^\s*(\d{1,2})[-/.](\d{1,2})[-/.]\d{2,4}\b")
# A card thanking its owner for paying it off (Aqua's, American Express' and TD's `PAYMENT - THANK YOU`): both
# words in either order, each sought once (one pattern with `.*` between them scanned the rest of the text again
# from every `payment`).
_THANKED = (re.compile(r"\bpayment\b", re.IGNORECASE), re.compile(r"\bthank you\b", re.IGNORECASE))
# A card saying it received its owner's payment, with or without thanks (Nubank's `Pagamento recebido`, American
# Express Sweden's `BETALNING MOTTAGEN, TACK`, and the same words in Spanish, Italian, French and German), or took
# it by direct debit (Itaú's `PAGAMENTO DEBITO AUTOMATICO`), sought in the folded text.
_RECEIVED = re.compile(
    r"\b(?:payment received|pagamento recebido|betalning mottagen|pago recibido|pagamento ricevuto|paiement recu"
    r"|zahlung erhalten|pagamento debito automatico)\b"
)
# A card's number masked as a statement prints it on each line (CIBC's `4505********0734`).
_MASKED_CARD = re.compile(r"^(?=(?:\D*\d){4})(?=.*[Xx*•])[\dXx*•. -]{8,23}$")
# How many records are read ahead to learn a date column's order (bounded: memory stays a few records).
LOOKAHEAD = 1_000


def _is_figure(text: str) -> bool:
    return bool(_FIGURE.match(text)) and not is_date(text)


def _first_data_record(records: list[list[str]]) -> int | None:
    for index, record in enumerate(records):
        cells = [cell.strip() for cell in record]
        if any(is_date(cell) for cell in cells) and any(_is_figure(cell) for cell in cells):
            return index
    return None


def headless_mapping(records: list[list[str]]) -> tuple[int, dict] | None:
    """(the index of the first data record, a resolved mapping by column index) for records that are data
    from their first line on, with no header at all, or from their second under a summary line with no date
    where theirs is (PNC's: the account, the period, its balances); None unless every record has a date in the
    same column, exactly one column holds signed or decimal figures in every record, and some record writes
    its sign."""
    found = _headless(records)
    first = _first_filled(records)
    if found is not None or first is None:
        return found
    summary = [cell.strip() for cell in records[first]]
    if not any(_is_figure(cell) or is_date(cell) for cell in summary):
        return None  # words alone: a header Zeus does not know names the columns, and its owner maps them
    after = _headless(records[first + 1 :])
    if after is None or is_date(_cell(records[first], after[1]["date"])):
        return None
    return first + 1 + after[0], after[1]


def _first_filled(records: list[list[str]]) -> int | None:
    return next((i for i, record in enumerate(records) if any(cell.strip() for cell in record)), None)


def _cell(record: list[str], column: int) -> str:
    return record[column].strip() if column < len(record) else ""


def _headless(records: list[list[str]]) -> tuple[int, dict] | None:
    start = _first_data_record(records)
    first = _first_filled(records)
    if start is None or start != first:
        return None  # a header Zeus does not know names the columns: its owner maps them, Zeus does not guess
    data = [[cell.strip() for cell in record] for record in records[start:] if any(c.strip() for c in record)]
    width = min(len(record) for record in data)
    dates, figures, currencies, texts, ways = [], [], [], [], []
    for column in range(width):
        values = [record[column] for record in data]
        filled = [value for value in values if value]
        if not filled:
            continue
        if len(filled) == len(values) and all(is_date(value) for value in values):
            dates.append(column)
        elif (
            len(filled) * 2 > len(values)
            and all(_is_figure(value) for value in filled)
            and any(_MONEY_MARK.search(value) for value in filled)
        ):
            # Blank on a line that moves no money (LBB's `+ 15.0 AMAZON.DE PUNKTE`, bonus points): still the amount.
            figures.append(column)
        elif all(len(value) == 3 and value.upper() in CURRENCY_EXPONENTS for value in filled):
            currencies.append(column)
        elif len(filled) == len(values) and names_sides(values):
            ways.append(column)
        else:
            texts.append((sum(len(value) for value in filled) / len(values), column))
    if len(figures) > 1:
        # A balance beside the amount (ASN's, before each line) is the one that runs on another's figures.
        columns = {c: [_decimal(record[c]) for record in data] for c in figures}
        figures = [b for b in figures if not any(_runs_on(columns[b], columns[a]) for a in figures if a != b)]
    if not dates or len(figures) != 1:
        return None
    if not any(_SIGN.match(record[figures[0]]) for record in data) and len(ways) != 1:
        # Unsigned figures alone (a card's `7.80`, `20.59`) say nothing of which way the money went: the
        # cells' rules (columns.infer_mapping) read that from a running balance, or the file is refused. A
        # column of DEBIT and CREDIT beside them (PNC's) says it.
        return None
    mapping = {"date": dates[0], "amount": figures[0]}
    if currencies:
        mapping["currency"] = currencies[0]
    if len(ways) == 1:
        # A column of DEBIT and CREDIT says each line's way, whatever sign the figure carries (a card's
        # export writes its charges positive under DEBIT and a payment negative under CREDIT).
        mapping["direction"] = ways[0]
    if texts:
        mapping["description"] = max(texts)[1]
    return start, mapping


def names_sides(values: list[str]) -> bool:
    """Whether a column's cells are each a word for the account's side: DEBIT, CREDIT, DR or CR."""
    return bool(values) and all(value.strip().lower() in SIDE_WORDS for value in values)


def _decimal(text: str) -> Decimal | None:
    """A figure's value where its separators leave no doubt (`1.644,24`, `-200.00`, `11'373.94`); None else."""
    text = text.replace("'", "").replace(" ", "")
    if "," in text and "." in text:
        decimal_comma = text.rfind(",") > text.rfind(".")
        text = text.replace(".", "").replace(",", ".") if decimal_comma else text.replace(",", "")
    elif text.count(",") == 1 and len(text.split(",")[1]) != 3:
        text = text.replace(",", ".")
    elif "," in text or text.count(".") > 1:
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _runs_on(balance: list, amount: list) -> bool:
    """Whether `balance` is a running balance of `amount`: before or after each line, oldest or newest first."""
    steps = list(itertools.pairwise(zip(balance, amount, strict=True)))
    rules = (
        lambda p, q: q[0] == p[0] + p[1],
        lambda p, q: q[0] == p[0] + q[1],
        lambda p, q: p[0] == q[0] + q[1],
        lambda p, q: p[0] == q[0] + p[1],
    )
    if not steps or None in balance or None in amount:
        return False
    return any(all(rule(p, q) for p, q in steps) for rule in rules)


def thanks_for_payment(text: str) -> bool:
    """Whether a line's text is a card thanking its owner for a payment, or saying it received one: money into the
    card's account."""
    return bool(_RECEIVED.search(fold(text))) or all(words.search(text) for words in _THANKED)


def thanked_only_in(lines: list[list[str]], figures: list) -> bool:
    """Whether some of `lines` thank their owner for a payment and each of those has its figure in the column
    of `figures`."""
    thanked = [figure for line, figure in zip(lines, figures, strict=True) if any(map(thanks_for_payment, line))]
    return bool(thanked) and all(thanked)


def card_paid_in(lines: list[list[str]], first: list, second: list) -> bool | None:
    """Where a column names the card by its masked number on every line (CIBC's headerless card CSV), which of
    two figure columns the card's owner paid it in with: True the `second`, False the `first`, by the payments
    it thanks its owner for; None where no such column or payment says."""
    if not any(all(_MASKED_CARD.match(line[c]) for line in lines) for c in range(min(map(len, lines)))):
        return None
    return True if thanked_only_in(lines, second) else False if thanked_only_in(lines, first) else None


def dates_day_first(dates: Iterable[str], *, default: bool) -> bool:
    """Whether a column of dates puts the day first: the first date with a part above 12 says; else dates
    written with dots (`05.07.2019`), which no country writes month first; else `default`."""
    dotted = False
    for text in dates:
        match = _DAY_MONTH.match(text)
        if match and int(match[1]) > 12:
            return True
        if match and int(match[2]) > 12:
            return False
        dotted = dotted or bool(match and "." in match[0])
    return dotted or default

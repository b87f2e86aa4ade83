"""CSV statements: Zeus's own header, or any bank's header with a column mapping. Read a line at a time."""

import csv
import datetime as dt
import functools
import itertools
from collections.abc import Iterator
from decimal import Decimal

from django.utils.translation import gettext

from assets import categories
from assets.rules.text import fold
from assets.statements import conventions, currency_columns, figures, running_balance, signs, table_lines
from assets.statements.cell_words import EITHER_WAY, MONEY_IN, MONEY_OUT
from assets.statements.headers import Beside
from assets.statements.inference import LOOKAHEAD
from assets.statements.rows import ImportRejected, Row, TableIds, clean_description, signed_amount
from zeus.errors import ValidationFailed
from zeus.money import CURRENCY_EXPONENTS, parse_amount
from zeus.text import scrub
from zeus.timeutil import parse_date

HEADER = ("date", "description", "amount", "direction", "category", "external_id")


def read_header(reader) -> list[str]:
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise ImportRejected(
            gettext("Line 1: the file is not valid CSV (%(exc)s).") % {"exc": exc}, code="INVALID_CSV"
        ) from None
    if header is None or not any(cell.strip() for cell in header):
        raise ImportRejected(gettext("The file is empty."), code="CSV_EMPTY")
    return [cell.strip() for cell in header]


def is_zeus_header(header: list[str]) -> bool:
    return tuple(h.lower() for h in header) == HEADER


def header_key(header: list[str]) -> str:
    """What a remembered mapping is filed under: the folded column names, in order (storable: a NUL in a
    column the mapping does not use must not fail the save after the rows are in)."""
    return scrub("|".join(fold(h) for h in header)[:500])


def _rows(reader, *, first_line: int, pad_to: int = 0) -> Iterator[tuple[int, list[str]]]:
    """The non-blank records with their line numbers; `pad_to` fills a short record's missing tail with
    blanks (an XLSX row stores no trailing empty cell: a debit row ends before its empty credit)."""
    line = first_line
    try:
        for record in reader:
            if any(cell.strip() for cell in record):
                if len(record) < pad_to:
                    record = record + [""] * (pad_to - len(record))
                yield line, record
            line = reader.line_num + 1
    except csv.Error as exc:
        raise ImportRejected(
            gettext("Line %(line_num)s: the file is not valid CSV (%(exc)s).")
            % {"line_num": reader.line_num, "exc": exc},
            code="INVALID_CSV",
        ) from None


def _columns(words: str, width: int, record) -> str:
    return words % {"width": width, "count": len(record)}


def _not_a_category_of(category: str, direction: str) -> str:
    if direction == "income":
        return gettext("“%(value)s” is not an income category.") % {"value": category}
    return gettext("“%(value)s” is not an expense category.") % {"value": category}


def zeus_rows(reader, *, currency: str, ragged: bool = False) -> Iterator[Row]:
    """Rows under Zeus's own header; `ragged`: the reader leaves trailing empty cells out (XLSX)."""
    for line, record in _rows(reader, first_line=2, pad_to=len(HEADER) if ragged else 0):
        row = Row(key=str(line))
        if len(record) != len(HEADER):
            row.problem("row", _columns(gettext("Expected %(width)s columns, found %(count)s."), len(HEADER), record))
            yield row
            continue
        date, description, amount, direction, category, external_id = (cell.strip() for cell in record)
        _date(row, parse_date, date, "date")
        _amount(row, amount, currency)
        direction = direction.lower() or "expense"
        if direction not in ("expense", "income"):
            row.problem("direction", gettext("Must be expense or income."))
        row.direction = direction
        category = category.lower()
        if category and category not in categories.ALL:
            row.problem("category", gettext("“%(value)s” is not a category.") % {"value": category})
        elif category and direction in ("expense", "income") and not categories.fits(category, direction):
            row.problem("category", _not_a_category_of(category, direction))
        row.category = category or None
        description = " ".join(description.split())
        if len(description) > 200:
            row.problem("description", gettext("At most %(count)s characters.") % {"count": 200})
        row.description = description
        if not external_id:
            row.problem("external_id", gettext("Required: it is how a re-import knows this row."))
        elif len(external_id) > 100:
            row.problem("external_id", gettext("At most %(count)s characters.") % {"count": 100})
        row.external_id = external_id
        if any("\x00" in cell for cell in record):
            row.problem("row", gettext("Contains a NUL character."))
        yield row


def mapped_rows(
    reader,
    *,
    mapping: dict,
    currency: str,
    first_line: int = 2,
    day_first: bool = True,
    ragged: bool = False,
    card: int | None = None,
    card_above: bool = False,
    charges: bool = False,
    today: dt.date | None = None,
    beside: Beside | None = None,
) -> Iterator[Row]:
    """Rows of a bank's CSV through a resolved mapping (column_mapping.check_mapping). Without an external_id
    column the rows get fingerprints; a currency column names each row's currency (blank: the account's).
    `ragged`: the reader leaves trailing empty cells out (XLSX). `card`: a card column's index
    (signs.card_statement); `card_above`: the card is named above the header (signs.card_above), by a
    purchase-day column, or the account the rows go into is a card's; `charges`: the amount column's header
    names a card's charges. `today`: the day yearless days are read up to (letterhead.until), None to refuse
    them. `beside`: the header's other columns that say how to read a line (the running balance:
    running_balance; what paid for it: table_lines.paid_elsewhere; the product it is in: table_lines.in_savings)."""
    ids, beside = TableIds("csv"), beside or Beside()
    width = max(index for key, index in mapping.items() if key != "date_format") + 1
    records = _rows(reader, first_line=first_line, pad_to=width if ragged else 0)
    ahead = list(itertools.islice(records, LOOKAHEAD))
    records = itertools.chain(ahead, records)
    mapping = conventions.sides_column(ahead, conventions.one_name_over_two(ahead, mapping))
    mapping = currency_columns.codes_column(ahead, conventions.silent_sides(ahead, mapping))
    width = max(index for key, index in mapping.items() if key != "date_format") + 1
    if not mapping.get("date_format"):
        day_first = conventions.day_first(ahead, mapping, default=day_first)
    # A booking day written without its year takes it from the line's other date (a format named is the owner's).
    year_from = None if mapping.get("date_format") else conventions.year_beside(ahead, mapping)
    # Days with no year and no column giving one (BCA's `'06/07`): each the latest such day up to `today`.
    undated = year_from is None and not mapping.get("date_format") and conventions.yearless(ahead, mapping)
    if undated:
        day_first = conventions.yearless_day_first(ahead, mapping, default=day_first)
    bare_out = signs.unsigned_reading(ahead, mapping, card, charges=charges, card_above=card_above)
    mark = figures.decimal_mark(cell for _, record in ahead for cell in record)
    usual = None if ragged else conventions.usual_width(ahead)
    read = functools.partial(_figure, currency=currency, mark=mark)
    # A card's balance is what is owed, which charges raise: its figures' way is the card's convention's to say.
    way = None if bare_out == "reversed" else running_balance.order(ahead, mapping, beside.balance, read)
    # A wallet's other currencies are other accounts, each with its balance: their lines are not this account's.
    other_accounts = currency_columns.apart(ahead, mapping, beside.balance, read)

    def lines() -> Iterator[tuple[Row | None, Decimal | None, bool]]:
        """Each line's row (None for a line that moves no money), its balance where the balance says the
        rows' ways (running_balance), and whether its figure is written unsigned."""
        for line, record in records:
            if conventions.summary_title(record):
                return  # what follows it repeats lines already read, or sums them
            if beside.product is not None and table_lines.in_savings(_at(record, beside.product)):
                continue
            if table_lines.not_a_transaction(record, mapping):
                if way and table_lines.balance_label(record, mapping):
                    yield None, running_balance.cell(read, record, beside.balance), False  # an opening balance's line
                continue
            row = Row(key=str(line))
            if len(record) < width:
                words = gettext("Expected at least %(width)s columns, found %(count)s.")
                row.problem("row", _columns(words, width, record))
                yield row, None, False
                continue
            cell = functools.partial(_cell, record, mapping)
            after = running_balance.cell(read, record, beside.balance) if way else None
            if year_from is not None and len(record) > year_from:
                _date(row, _yearless_date, conventions.completed_date, cell("date"), record[year_from], day_first)
            elif undated and today is not None:
                _date(row, _yearless_date, conventions.latest_date, cell("date"), today, day_first)
            else:
                _date(row, table_lines.read_cell_date, cell("date"), mapping.get("date_format"), day_first)
            own = conventions.currency_code(cell("currency")) if "currency" in mapping else ""
            if other_accounts and own and own != currency.upper():
                continue
            if not _mapped_amount(row, mapping, cell, own or currency, bare_out=bare_out, mark=mark):
                if conventions.money_aside(record, mapping, usual):
                    words = gettext("Found %(count)s columns, not the table's %(width)s: the amount is out of place.")
                    row.problem("row", _columns(words, usual, record))
                    yield row, None, False
                else:
                    yield None, after, False  # a notice (a rate change, an opening balance) that moves no money
                continue
            if table_lines.paid_elsewhere(row.direction, _at(record, beside.funding)):
                yield None, after, False
                continue
            if "description" in mapping:
                row.description = clean_description(cell("description"))
            if any("\x00" in value for value in record):
                row.problem("row", gettext("Contains a NUL character."))
            # The bank's reference, which becomes the row's id below, once its way is settled.
            row.external_id = cell("external_id") or None
            yield row, after, bool(way) and running_balance.unsigned(cell("amount"))

    read_lines = lines()
    rows = running_balance.settled(read_lines, way) if way else (row for row, _, _ in read_lines if row)
    for row in rows:
        ids(row, row.external_id)
        yield row


def _yearless_date(read, text: str, reference, day_first: bool) -> dt.date:
    """conventions.completed_date or conventions.latest_date, its ValueError a date problem."""
    try:
        return read(text, reference, day_first=day_first)
    except ValueError:
        raise ValidationFailed(
            gettext("%(text)r is not a date; name its format in the mapping (date_format).") % {"text": text}
        ) from None


def _at(record: list[str], column: int | None) -> str:
    return record[column].strip() if column is not None and len(record) > column else ""


def _cell(record: list[str], mapping: dict, key: str) -> str:
    return record[mapping[key]].strip() if key in mapping else ""


def _date(row: Row, read, *args) -> None:
    try:
        row.occurred_on = read(*args)
    except ValidationFailed as exc:
        row.problem("date", exc.message)


def _figure(text: str, currency: str, mark: str | None = None) -> Decimal | None:
    """A bank's figure (`-150,000`, `(150.000)`, `150000 VND`; None when blank) read with the file's decimal
    `mark`; one naming another currency than the ledger's (`$12.50` into VND) is refused, never read."""
    text = figures.without_note(text.strip().replace("\u00a0", " "))
    if text.isdigit() and text.isascii():  # a plain count of units (an XLSX number cell): nothing to parse
        return Decimal(text)
    if figures.stands_for_nothing(text):
        return None
    text, side = figures.side_written(figures.sign_first(text))
    if text in ("0", "0.00"):
        return Decimal(0)
    negative = side < 0 or text.startswith("-") or (text.startswith("(") and text.endswith(")"))
    text = figures.without_currency(text.strip("()").lstrip("-+").strip(), currency)
    if text[:1] in ".," and text[1:].isdigit():
        text = f"0{text}"  # a figure under one written without its leading zero (Sberbank's `-,01`)
    if (marked := figures.by_mark(text, mark, currency)) is not None:
        return -marked if negative else marked
    # An unknown code reads as a two-decimal figure here; the row's currency check names the code itself.
    parsed = parse_amount(text, decimals=CURRENCY_EXPONENTS.get(currency.upper(), 2))
    if parsed.currency and parsed.currency != currency:
        raise ValidationFailed(
            gettext("%(text)r is in %(currency)s, but this ledger is in %(currency2)s.")
            % {"text": text, "currency": parsed.currency, "currency2": currency}
        )
    return -parsed.amount if negative else parsed.amount


def _amount(row: Row, text: str, currency: str) -> None:
    try:
        value = _figure(text, currency)
    except ValidationFailed as exc:
        row.problem("amount", exc.message)
        return
    if value is None or value <= 0:
        row.problem("amount", "The amount must be greater than zero.")
        return
    signed_amount(row, value, currency)
    row.direction = None


def _money_key(mapping: dict) -> str:
    return next(k for k in ("amount", "debit", "credit") if k in mapping)


def _mapped_amount(
    row: Row, mapping: dict, cell, currency: str, *, bare_out: str | None = None, mark: str | None = None
) -> bool:
    """Reads the row's signed amount; False for a line whose figures are all written as zero. `bare_out`:
    signs.unsigned_reading's word for how the amount column's figures read; `mark`: the decimal mark."""
    number = functools.partial(_figure, mark=mark)
    try:
        if "amount" in mapping:
            value = number(cell("amount"), currency)
            # A figure with its side written after it (`Dr`, `Cr`) reads as it says, whatever the column's reading.
            if bare_out and value and not figures.side_written(cell("amount").strip())[1]:
                if bare_out == "out" and not cell("amount").startswith("+"):
                    value = -abs(value)
                elif bare_out == "reversed":
                    value = -value
        else:
            debit = number(cell("debit"), currency) if "debit" in mapping else None
            credit = number(cell("credit"), currency) if "credit" in mapping else None
            written, debit, credit = debit is not None or credit is not None, abs(debit or 0), abs(credit or 0)
            if debit and credit:
                row.problem("amount", gettext("Both debit and credit are filled."))
                return True
            value = credit or -debit if (debit or credit) else (Decimal(0) if written else None)
        # A fee or tax column (Techcombank's `Phí/Lãi`, `Thuế/VAT`) is charged: money out, however it is signed;
        # but beside a card's figures written as charges, a negative fee is one given back (Lotte Card's fee paid
        # with points).
        charges = [number(cell(k), currency) for k in ("fee", "tax") if k in mapping]
        if any(c is not None for c in charges):
            value = (value or 0) - sum((c or 0) if bare_out == "reversed" else abs(c or 0) for c in charges)
        if "twin" in mapping and number(cell("twin"), currency) != number(cell(_money_key(mapping)), currency):
            # Two columns read as one because their figures agreed on the lines sampled: not on this one.
            words = gettext("“%(one)s” and “%(other)s” differ; name the column to import.")
            row.problem("amount", words % {"one": cell("twin"), "other": cell(_money_key(mapping))})
            return True
        if value is None and (paid := table_lines.paid_out_in_words(cell("description"))):
            value = -abs(number(paid, currency))
    except ValidationFailed as exc:
        row.problem("amount", exc.message)
        return True
    if value == 0:
        return False
    if value is None:
        return False  # a dated line with no figure at all (`Beginning Balance`, `Open Account`) moves no money
    if "direction" in mapping:
        word = fold(cell("direction"))
        if word in MONEY_IN:
            value = abs(value)
        elif word in MONEY_OUT:
            value = -abs(value)
        elif value < 0 or not word or word in EITHER_WAY:
            pass  # a signed figure says its own way; the column is blank on this line
        else:
            words = gettext("“%(value)s” is neither money in nor money out.")
            row.problem("direction", words % {"value": cell("direction")})
            return True
    signed_amount(row, value, currency)
    return True

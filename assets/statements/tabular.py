"""Tables of rows (a CSV file, an XLSX sheet): where the header is and which mapping reads it. Banks put a
title, the account and the period above the header, so the header is looked for in the first rows: Zeus's
own header, a mapping sent with the file, one remembered for this header, or the one the header's own names
imply (headers.auto_mapping). Pure but for the `saved` look-up it is given."""

import csv
import datetime as dt
from collections.abc import Callable, Iterator

from django.utils.translation import gettext

from assets.rules.text import fold
from assets.statements import column_mapping, conventions, csvfile, letterhead, signs, two_sided
from assets.statements.cells import is_date_cell
from assets.statements.columns import MAX_COLUMNS, SAMPLE_ROWS, infer_mapping
from assets.statements.dates import read_date
from assets.statements.detect import ACCEPTED, unsupported
from assets.statements.headers import (
    auto_mapping,
    beside,
    card_charges,
    card_column,
    names_card_table,
    names_value_date,
    namesakes_apart,
)
from assets.statements.inference import headless_mapping
from assets.statements.overlong import Mender
from assets.statements.rows import ImportRejected, Row
from assets.statements.sheets import Sheets

HEADER_SEARCH_ROWS = 30


class _Replay:
    """The records the header search read, then the rest of the reader, keeping each record's line."""

    def __init__(self, seen: list[tuple[int, list[str]]], reader):
        self.seen, self.reader, self.line_num = iter(seen), reader, 0

    def __iter__(self):
        return self

    def __next__(self) -> list[str]:
        for line, record in self.seen:
            self.line_num = line
            return record
        record = next(self.reader)
        self.line_num = self.reader.line_num
        return record


class _Section:
    """The records up to the next header of another layout (a card statement in parts, each under its own
    header: Cumulus-style payments, then purchases with their purchase day first), which is kept in `next`.
    The same header again over a second table is left to the reader's rules (csvfile)."""

    def __init__(self, reader, header: list[str], mender: Mender | None = None):
        self.reader, self.key, self.line_num, self.next = reader, csvfile.header_key(header), 0, None
        self.title: list[str] = []  # the last line not blank: the title of a table whose header comes next
        # A line longer than the header may hold its separator in its text (overlong): one comparison a line.
        self.mender, self.width, self.above = mender, len(header) if mender else 1 << 30, None

    def __iter__(self):
        return self

    def __next__(self) -> list[str]:
        if self.next is not None:
            raise StopIteration
        record = next(self.reader)
        self.line_num = self.reader.line_num
        if len(record) > self.width:
            record = self.mender.joined(record, self.above)
        self.above = record
        title, self.title = self.title, (record if any(cell.strip() for cell in record) else self.title)
        # A header holds no digit (a line of the table its date and figures): the one check on every line.
        if any(char.isdigit() for cell in record for char in cell):
            return record
        header = [cell.strip() for cell in record]
        if csvfile.header_key(header) != self.key and auto_mapping(header) is not None:
            self.next = (self.line_num, header, title)
            raise StopIteration
        return record


def _sections(
    reader, header: list[str], chosen: dict, line: int, choose: Callable, *, title: list[str], card_above: bool, **read
) -> Iterator[Row]:
    """The rows of each section of the table, each read through the mapping its own header takes
    (`choose(header)`), the first through `chosen`; a card's table where `card_above` or its header has a
    purchase day; none of a section whose title (the line of words above its header) says its lines are not
    booked yet."""
    # A CSV reader's delimiter, which a line's text may hold unquoted (a sheet's cells hold theirs whole).
    delimiter = getattr(getattr(reader, "dialect", None), "delimiter", None)
    while True:
        mapping = column_mapping.check_mapping(chosen, header)
        section = _Section(reader, header, Mender(header, mapping, delimiter) if delimiter else None)
        rows = csvfile.mapped_rows(
            section,
            mapping=mapping,
            first_line=line + 1,
            card=card_column(header),
            charges=card_charges(chosen.get("amount")),
            card_above=card_above or names_card_table(header),
            beside=beside(header),
            **read,
        )
        if conventions.not_booked_title(title):
            for _ in rows:  # read past, so that the next section's header is found
                pass
        else:
            yield from rows
        if section.next is None:
            return
        line, header, title = section.next
        if isinstance(reader, Sheets):
            reader.end_with_this_sheet()  # a further sheet continues the first header's table, not this one
        chosen = choose(header)


def _sample(reader, ahead: list[tuple[int, list[str]]]) -> None:
    """Reads on into `ahead` until it holds SAMPLE_ROWS records past the header, or the file ends."""
    while len(ahead) < SAMPLE_ROWS and (item := _read(reader)) is not None:
        ahead.append(item)


def _read(reader) -> tuple[int, list[str]] | None:
    """The next record and its line, None at the end; a 400 for a file that is not CSV in its encoding."""
    try:
        record = next(reader, None)
    except csv.Error as exc:
        raise ImportRejected(
            gettext("Line %(line_num)s: the file is not valid CSV (%(exc)s).")
            % {"line_num": reader.line_num, "exc": exc},
            code="INVALID_CSV",
        ) from None
    except UnicodeDecodeError:
        raise ImportRejected(
            gettext("The file's text is not in the encoding it starts in; save it as CSV UTF-8."), code="CSV_NOT_UTF8"
        ) from None
    return None if record is None else (reader.line_num, record)


def _two_row_header(upper: list[str], lower: list[str]) -> list[str] | None:
    """A header written on two rows (a merged `Số phát sinh` or `Số tiền` cell over `Nợ` and `Có`): each
    column named by its lower cell where it has one, else by its upper. None when `lower` holds a figure or a
    date (a row of data) or nothing."""
    lower = [cell.strip() for cell in lower]
    if not any(lower) or any(ch.isdigit() for cell in lower for ch in cell):
        return None
    width = max(len(upper), len(lower))
    upper, lower = upper + [""] * (width - len(upper)), lower + [""] * (width - len(lower))
    return [below or above for above, below in zip(upper, lower, strict=True)]


def _fits(mapping, header: list[str]) -> bool:
    if not isinstance(mapping, dict):
        return False
    folded = {fold(h) for h in header}
    columns = [v for k, v in mapping.items() if k != "date_format" and v]
    return bool(columns) and all(isinstance(c, str) and fold(c) in folded for c in columns)


def _other_side(chosen: dict, header: list[str], sample: list[list[str]]) -> dict | None:
    """The mapping with the debit or credit column its header left unnamed, where the cells leave one
    candidate; else None."""
    inferred = infer_mapping([header, *sample])
    found = inferred[1] if inferred else {}
    if "debit" not in found or "credit" not in found:
        return None
    # The named side keeps the role its header gave it (a cash book's contra account turns Nợ and Có round).
    have = "debit" if "debit" in chosen else "credit"
    folded = [fold(cell) for cell in header]
    rest = [header[found[side]] for side in ("debit", "credit") if fold(header[found[side]]) != fold(chosen[have])]
    if len(rest) != 1 or not rest[0] or folded.count(fold(rest[0])) != 1:
        return None
    return {**chosen, ("credit" if have == "debit" else "debit"): rest[0]}


def _within(period: tuple[dt.date, dt.date] | None, cells: list[str], *, day_first: bool) -> bool:
    """Whether every cell is a day within the statement's `period` (False without one)."""
    try:
        return period is not None and all(period[0] <= read_date(c, day_first=day_first) <= period[1] for c in cells)
    except ValueError:
        return False


def _booked_apart(
    header: list[str], value_date: str, sample: list[list[str]], period: tuple[dt.date, dt.date] | None, day_first: bool
) -> bool:
    """Whether a column beside the value date holds dates of its own, another day on some line (BLKB's
    `Auftragsdatum` beside its `Valutadatum`): the booking may be that one, so the value date is not read by
    default, as the cells' inference (columns) does not read it either. Unless the statement's `period`, named
    above the table, holds every value date and not every day of the other column (Česká spořitelna's `Processing
    date` of 1 July on a June statement whose balance counts the line): the line was booked on its value date."""
    named = next(i for i, cell in enumerate(header) if fold(cell) == fold(value_date))
    for column in range(min(len(header), MAX_COLUMNS)):
        # Each cell's date part (a time may follow one and not the other).
        pairs = [(r[column].strip(), r[named].strip()) for r in sample if len(r) > max(column, named)]
        pairs = [(cell, value) for cell, value in pairs if cell]
        dated = column != named and pairs and all(is_date_cell(cell) for cell, _ in pairs)
        if dated and any(cell.split()[:1] != value.split()[:1] for cell, value in pairs):
            values, others = [v for _, v in pairs if v], [c for c, _ in pairs]
            held = _within(period, values, day_first=day_first) and not _within(period, others, day_first=day_first)
            if not held:
                return True
    return False


def _search(
    reader,
    *,
    mapping: dict | None,
    saved: Callable[[str], dict | None],
    day_first: bool,
    seen: list[tuple[int, list[str]]],
    ahead: list[tuple[int, list[str]]],
) -> tuple[list[str], dict, int, tuple[str, dict] | None] | bool:
    """The header in the first rows and the mapping that reads it: (header, mapping, its line, the (header key,
    mapping) to remember or None); True for Zeus's own header; False for none. `seen` gets the records read up to
    the header, `ahead` those read past it (a record read to see whether it is a header's second row)."""
    for _ in range(HEADER_SEARCH_ROWS):
        item = ahead.pop() if ahead else _read(reader)
        if item is None:
            break
        seen.append(item)
        line, record = item
        header = [cell.strip() for cell in record]
        if sum(1 for cell in header if cell) < 2:
            continue
        if csvfile.is_zeus_header(header) and not mapping:
            return True
        key = csvfile.header_key(header)
        chosen, remember, automatic = None, None, False
        if mapping:
            if _fits(mapping, header):
                chosen, remember = mapping, (key, mapping)
        else:
            chosen = saved(key)
            if chosen is None:
                chosen, automatic = auto_mapping(header), True
                if chosen is None or "amount" in chosen:
                    below = _read(reader)
                    two_rows = _two_row_header(header, below[1]) if below else None
                    both = auto_mapping(two_rows) if two_rows else None
                    # Two rows read together where neither reads a table alone (Lotte Card's amount is named only
                    # below its `이번 달 입금하실 금액`), or the upper reads one figure where they read two sides.
                    if both and (
                        (chosen is None and auto_mapping([cell.strip() for cell in below[1]]) is None)
                        or {"debit", "credit"} & set(both)
                    ):
                        header, chosen, line = two_rows, both, below[0]
                        seen.append(below)
                    elif below:
                        ahead.append(below)
        if chosen is None:
            continue
        if automatic and "amount" not in chosen and ("debit" in chosen) != ("credit" in chosen):
            # One side named (`Credit`), the other in words Zeus does not know: its cells may say which it is.
            _sample(reader, ahead)
            chosen = _other_side(chosen, header, [record for _, record in ahead])
            if chosen is None:
                # Without it the other side's lines would read as lines that move no money: not read at all.
                seen += ahead
                ahead.clear()
                continue
        if automatic and names_value_date(chosen["date"]):
            _sample(reader, ahead)
            order = letterhead.day_first(seen[:-1], default=day_first)
            period = letterhead.period(seen[:-1], day_first=order)
            if _booked_apart(header, chosen["date"], [record for _, record in ahead], period, order):
                seen += ahead
                ahead.clear()
                continue
        named = [fold(cell) for cell in header if cell]
        if automatic and len(set(named)) < len(named):
            # Two columns under one name: the one the lines fill is the mapping's (headers.namesakes_apart).
            _sample(reader, ahead)
            header = namesakes_apart(header, chosen, [record for _, record in ahead])
        return header, chosen, line, remember
    return False


def table_rows(
    reader,
    *,
    mapping: dict | None,
    saved: Callable[[str], dict | None],
    currency: str,
    day_first: bool,
    ragged: bool = False,
    today: dt.date | None = None,
    card_account: bool = False,
) -> tuple[Iterator[Row], tuple[str, dict] | None]:
    """(the rows, the (header key, mapping) to remember for next time or None). `ragged`: the reader leaves
    a row's trailing empty cells out, as an XLSX sheet stores it; `today`: the importer's (csvfile.mapped_rows);
    `card_account`: the rows go into a card's account, so the table is a card's as one whose letterhead names
    the card is (American Express' US download, `Date,Description,Amount`, says it nowhere else).
    A workbook's reader (`more_sheets`) reads on into each further sheet under the same header (sheets.Sheets)."""
    seen: list[tuple[int, list[str]]] = []
    ahead: list[tuple[int, list[str]]] = []
    found = _search(reader, mapping=mapping, saved=saved, day_first=day_first, seen=seen, ahead=ahead)
    if found is True:
        return csvfile.zeus_rows(reader, currency=currency, ragged=ragged), None
    if found:
        header, chosen, line, remember = found
        column_mapping.check_mapping(chosen, header)  # a 400 naming what the mapping gets wrong, before any row

        def choose(other: list[str]) -> dict:
            if mapping:
                return mapping if _fits(mapping, other) else auto_mapping(other)
            return saved(csvfile.header_key(other)) or auto_mapping(other)

        def under(sheet):
            # A further sheet's lines, where the header search finds this header on it.
            read, past = [], []
            other = _search(sheet, mapping=mapping, saved=saved, day_first=day_first, seen=read, ahead=past)
            if not isinstance(other, tuple) or csvfile.header_key(other[0]) != csvfile.header_key(header):
                return None
            return _Replay(past, sheet) if past else sheet

        lines = _Replay(ahead, reader) if ahead else reader
        if more := getattr(reader, "more_sheets", lambda: None)():
            lines = Sheets(lines, reader, more, under)
        order = letterhead.day_first(seen[:-1], default=day_first)
        rows = _sections(
            lines,
            header,
            chosen,
            line,
            choose,
            title=next((record for _, record in reversed(seen[:-1]) if any(c.strip() for c in record)), []),
            currency=currency,
            day_first=order,
            ragged=ragged,
            card_above=card_account or signs.card_above([record for _, record in seen[:-1]]),
            today=letterhead.until(seen[:-1], today, day_first=order),
        )
        return rows, remember
    first = next(([cell.strip() for cell in record] for _, record in seen if any(c.strip() for c in record)), None)
    seen += ahead
    if first is None:
        raise ImportRejected(gettext("The file is empty."), code="CSV_EMPTY")
    if not mapping and (sides := two_sided.layout(first)):
        under = next(i for i, (_, record) in enumerate(seen) if any(c.strip() for c in record)) + 1
        return two_sided.rows(_Replay(seen[under:], reader), sides, currency=currency), None
    if mapping:
        column_mapping.check_mapping(mapping, first)  # names what the mapping gets wrong
    found, letterhead_dates = headless_mapping([record for _, record in seen]), False
    if not found:
        # Header words Zeus does not know (or none): the cells may still say each column's role, past doubt.
        while len(seen) < HEADER_SEARCH_ROWS + SAMPLE_ROWS and (item := _read(reader)) is not None:
            seen.append(item)
        found, letterhead_dates = infer_mapping([record for _, record in seen]), True
    if found:
        start, resolved = found
        order = letterhead.day_first(seen[:start], default=day_first)
        rows = csvfile.mapped_rows(
            _Replay(seen[start:], reader),
            mapping=resolved,
            currency=currency,
            first_line=seen[start][0],
            day_first=order if letterhead_dates else day_first,
            ragged=ragged,
            card_above=card_account or signs.card_above([record for _, record in seen[:start]]),
            today=letterhead.until(seen[:start], today, day_first=order),
            # The line above the first line, where it is a header of words Zeus does not all know.
            beside=beside([cell.strip() for cell in seen[start - 1][1]]) if start else None,
        )
        return rows, None
    if not any(sum(1 for cell in record if cell.strip()) > 1 for _, record in seen):
        # A fixed-width statement (Finland's TITO) or any other text of one column: no mapping can read it.
        raise unsupported(gettext("text with no columns"))
    raise ImportRejected(
        gettext(
            "The first line must be the header %(value)s, or send a column mapping for this bank's header. "
            "Zeus reads %(ACCEPTED)s."
        )
        % {"value": ",".join(csvfile.HEADER), "ACCEPTED": ACCEPTED},
        code="CSV_BAD_HEADER",
        fields={"header": first[:50]},
    )

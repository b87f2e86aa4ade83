"""Column roles read from the cells where a table's header words do not name them (a bank whose vocabulary
Zeus has never seen, or a table with no header at all). Each rule asks for evidence that leaves one reading
only, and answers None otherwise: a refused file is asked for a mapping, a wrongly read one writes wrong
money into a ledger.

- date: every transaction line's cell is a date (a time may follow), read in one order (no column where one
  date needs the day first and another the month first);
- money: one column of signed figures (the amount), or two mostly exclusive columns (debit and credit: never
  both filled on a line), the file's decimal mark told by its own figures as the figure reader tells it
  (figures.decimal_mark: `1.234,56` or `1,234.56`, never both); any other column of money must be accounted
  for (the same figures, the running balance, or the exchange rate between the chosen column and another),
  and two columns of the same figures on every line are one (read from the last, held to agree line by line);
- which unsigned column is money out, or whether a lone unsigned column is: the signs of one side, a header
  word for one of them, or the running balance (a column whose successive differences equal the lines'
  figures) read in the order the lines' days run, since the same balance read upwards says the opposite;
- description: the longest free text; currency: a column of ISO codes.

Header words still win: a column they name keeps that role, and the cells fill only what they leave
unnamed. Pure."""

import itertools
import re
from decimal import Decimal

from assets.statements.cells import figure, is_date_cell, is_figure, one_order
from assets.statements.currency_columns import all_codes
from assets.statements.dates import read_date
from assets.statements.figures import APOSTROPHES, decimal_mark
from assets.statements.headers import column_keys, credit_second, names_value_date
from assets.statements.inference import card_paid_in, dates_day_first, names_sides, thanked_only_in

# How many lines after the header are read to learn the columns (bounded: a few records in memory).
SAMPLE_ROWS = 200
# Banks' tables have a few dozen columns; past this the pairwise balance checks would cost a hostile file's
# width squared, so a wider table is left to a mapping.
MAX_COLUMNS = 60
_MONEY_MARK = re.compile(rf"^[+-]|\d[.,{APOSTROPHES} ]\d")
_CENTS = re.compile(r"\d[.,]\d\d$")
_MONEY_ROLES = ("amount", "debit", "credit")


def _runs(balance: list[Decimal], moved: list[Decimal], order: int | None = None) -> bool:
    """Whether `balance` runs on `moved`: after or before each line, the oldest line first (`order` 1), the
    newest first (-1), or either (None). Either order reads the same column as the balance of the figures or
    of their opposites, so only a known order tells which way money went."""
    steps = list(itertools.pairwise(zip(balance, moved, strict=True)))
    oldest_first = (lambda p, q: q[0] == p[0] + q[1], lambda p, q: q[0] == p[0] + p[1])
    newest_first = (lambda p, q: p[0] == q[0] + p[1], lambda p, q: p[0] == q[0] + q[1])
    rules = oldest_first if order == 1 else newest_first if order == -1 else oldest_first + newest_first
    # One step fits one of the rules too easily (300 after 200 is +100 one way and -100 the other): two at least.
    return len(steps) >= 2 and any(all(rule(p, q) for p, q in steps) for rule in rules)


def _order(cells: list[str]) -> int | None:
    """1 where the lines run from the oldest day to the newest, -1 the other way, None where the days do not
    say (all one day, out of order, or a cell that is no date under a date word)."""
    first = dates_day_first(cells, default=True)
    try:
        days = [read_date(cell, day_first=first) for cell in cells]
    except ValueError:
        return None
    pairs = list(itertools.pairwise(days))
    if len(days) < 2 or days[0] == days[-1]:
        return None
    return 1 if all(a <= b for a, b in pairs) else -1 if all(a >= b for a, b in pairs) else None


class _Table:
    """The transaction lines of a sample, cell by column, with each column's kind."""

    def __init__(self, lines: list[list[str]], named: dict[int, str], header: list[str] | None = None):
        self.width = max(len(line) for line in lines)
        self.lines = [[c.strip() for c in line] + [""] * (self.width - len(line)) for line in lines]
        self.named = named
        self.header = (header or []) + [""] * (self.width - len(header or []))
        self.order: int | None = None  # which way the lines' days run, once the date column is known
        self.money_columns: dict[int, list] = {}
        # The figure reader's own rule, over every cell (it tells figures from the rest); where no figure
        # tells, whole figures and `1,234`-style groups are read with a `.`.
        self.mark = decimal_mark((v for line in self.lines for v in line), unsettled=".")

    def values(self, column: int) -> list[str]:
        return [line[column] for line in self.lines]

    def filled(self, column: int) -> list[str]:
        return [v for v in self.values(column) if v]

    def is_dates(self, column: int) -> bool:
        """Whether every filled cell is a date, in one order (a booking date left blank on a pending line
        still makes a date column)."""
        values = self.filled(column)
        return bool(values) and all(is_date_cell(v) for v in values) and one_order(values)

    def figures(self, column: int) -> list[Decimal | None] | None:
        """The column's figures (None where blank), or None unless every filled cell is one."""
        if self.mark is None:
            return None
        read = [figure(v, self.mark) if v else None for v in self.values(column)]
        if not self.filled(column) or any(r is None for r, v in zip(read, self.values(column), strict=True) if v):
            return None
        return read

    def money(self, column: int) -> list[Decimal | None] | None:
        """The column's figures where one of them is written as money (a sign, a decimal part, grouped
        thousands) or the column is blank on some lines (one side of debit and credit, whole in a sheet's
        number cells); else None."""
        read = self.figures(column)
        if read is None or not (None in read or any(_MONEY_MARK.search(v) for v in self.filled(column))):
            return None  # whole numbers on every line: an account number or a count, unless blank on some
        return read

    def free(self) -> list[int]:
        return [c for c in range(self.width) if c not in self.named]


def _transaction_lines(records: list[list[str]]) -> tuple[int, list[int]] | None:
    """(the index of the first transaction line, the indexes of every transaction line in the sample): a line
    holding a whole-cell date and a figure. Lines between them without both (a description's continuation, a
    note) are left to the reader's own rules."""
    found = [
        i
        for i, record in enumerate(records)
        if any(is_date_cell(c.strip()) for c in record) and any(is_figure(c.strip()) for c in record if c.strip())
    ]
    return (found[0], found) if found else None


def _header_names(records: list[list[str]], start: int) -> tuple[dict[int, str], list[str] | None]:
    """The roles the header's words give its columns, and the header: the nearest line above the first
    transaction line with two or more cells, none of them a figure or a date (an opening balance's line may
    stand between them)."""
    for record in reversed(records[:start]):
        cells = [c.strip() for c in record]
        if sum(1 for c in cells if c) >= 2 and not any(is_figure(c) or is_date_cell(c) for c in cells if c):
            return column_keys(cells), cells
    return {}, None


def _dates(table: _Table, header: list[str] | None) -> int | None:
    named = [c for c, k in table.named.items() if k == "date"]
    columns = [c for c in table.free() if table.is_dates(c)]
    if named:
        # A value date named beside another date column in words Zeus does not know: that one may be the booking.
        value_date = header is not None and names_value_date(header[named[0]])
        others = any(table.values(c) != table.values(named[0]) for c in columns)
        return None if value_date and others else named[0]
    distinct = {tuple(table.values(c)) for c in columns}
    # Two date columns that differ (booking and value date, made and booked) leave the booking date open.
    if len(distinct) != 1 or not all(table.values(columns[0])):
        return None
    return columns[0]


def _explained(money: dict[int, list], chosen: dict[str, int], moved: list[Decimal]) -> bool:
    """Whether every other column of money is accounted for: the same figures as a chosen one (an amount in
    the account's currency beside the original), the running balance of the lines' movements, or the
    exchange rate that gives the chosen figures from another column's. Any other leaves which column is the
    money a guess."""
    for column, values in money.items():
        if column in chosen.values() or any(values == money[c] for c in chosen.values() if c in money):
            continue
        if None in values or not (_runs(values, moved) or _is_rate(column, money, set(chosen.values()))):
            return False
    return True


def _is_rate(column: int, money: dict[int, list], chosen: set[int]) -> bool:
    """Whether the column is the exchange rate that gives the chosen money: on every line another column of
    money times it is the chosen one, to its last written place (`Originalbetrag` times `Umrechnungskurs`
    is `Buchungsbetrag`)."""
    rate = money[column]
    for original, booked in itertools.product(money, chosen & set(money)):
        if original in (column, booked) or None in money[original] or None in money[booked]:
            continue
        if all(
            x and abs(x * r - y) * 2 <= Decimal(1).scaleb(y.as_tuple().exponent)
            for r, x, y in zip(rate, money[original], money[booked], strict=True)
        ):
            return True
    return False


def _orientation(moved: list[Decimal], balances: dict[int, list], order: int | None) -> bool | None:
    """True when a balance runs on `moved` as signed, False when it runs on them reversed, None when none
    does, either would, or the lines' days leave their order open."""
    if order is None:
        return None
    forward = any(None not in b and _runs(b, moved, order) for b in balances.values())
    backward = any(None not in b and _runs(b, [-v for v in moved], order) for b in balances.values())
    return None if forward == backward else forward


def _money(table: _Table, taken: set[int]) -> dict[str, int] | None:
    named = {k: c for c, k in table.named.items() if k in _MONEY_ROLES}
    if any(table.filled(c) and table.figures(c) is None for c in named.values()):
        return None  # a header word for money over cells that hold none (a currency under `Mutatie`)
    if "amount" in named:
        return {"amount": named["amount"]}
    if named:
        return named if len(named) == 2 else _other_half(table, named, taken)
    money = {c: f for c in table.free() if c not in taken and (f := table.money(c)) is not None and any(f)}
    # A file writes its money one way: where some columns write cents on every figure, a column of whole
    # numbers blank on some lines (Desjardins' cheque number `12`) is no money.
    cents = {c for c in money if all(_CENTS.search(v) for v in table.filled(c))}
    if cents:
        money = {c: f for c, f in money.items() if c in cents or any(_MONEY_MARK.search(v) for v in table.filled(c))}
    table.money_columns = money
    balances = {c: f for c, k in table.named.items() if k == "balance" and (f := table.figures(c))}
    # A balance may be whole numbers on every line (a sheet's number cells): any full column of figures.
    figures = {c: f for c in table.free() if c not in taken and (f := table.figures(c)) is not None}
    balances = balances or {c: f for c, f in figures.items() if None not in f}
    full = {c: f for c, f in money.items() if None not in f}
    # A column that runs on another is that one's balance, never the money the lines moved.
    own = [c for c in money if not any(_runs(money[c], full[a]) for a in full if a != c and c in full)]
    signed = [c for c in own if any(v is not None and v < 0 for v in money[c])]
    # Partly filled: blank, or zero (Mandiri writes `0000000000000.00` on a line's other side), on some lines; of
    # more, the two blank on some line (a card's balance owed, paid off, is 0.00 on its line: TD's).
    sparse = {c: f for c, f in money.items() if None in f or 0 in f}
    if len(blank := {c: f for c, f in sparse.items() if None in f}) == 2:
        sparse = blank
    if len(sparse) == 2 and set(signed) <= set(sparse):
        return _pair(table, sparse, balances, signs_speak=bool(signed))
    signed, twin = _one_of_twins(signed, money)
    if len(signed) == 1:
        moved = [v or Decimal(0) for v in money[signed[0]]]
        chosen = {"amount": signed[0], **twin}
        return chosen if _explained(money, {"amount": signed[0]}, moved) else None
    if signed:
        return None
    lone, twin = _one_of_twins([c for c in own if c in full], money)
    if len(lone) != 1:
        return None
    # Unsigned figures in one column: which way they went is the running balance's to say.
    way = _orientation(full[lone[0]], {c: b for c, b in balances.items() if c != lone[0]}, table.order)
    if way is None:
        return None
    chosen = {"credit" if way else "debit": lone[0]}
    moved = [v if way else -v for v in full[lone[0]]]
    return {**chosen, **twin} if _explained(money, chosen, moved) else None


def _one_of_twins(columns: list[int], money: dict[int, list]) -> tuple[list[int], dict[str, int]]:
    """Two or more columns of the same figures on every line (an amount beside the same in the account's
    currency: `Amount` and `Amount (VND)`, `Originalbetrag` and `Buchungsbetrag`) are one column of money:
    the last is read (a conversion is written after what it converts) and the first is its `twin`, which
    every line read must agree with (a later line in another currency is a bad row, never a guess)."""
    if len(columns) > 1 and all(money[c] == money[columns[0]] for c in columns):
        return [columns[-1]], {"twin": columns[0]}
    return columns, {}


def _pair(table: _Table, sparse: dict[int, list], balances: dict, *, signs_speak: bool) -> dict | None:
    """Debit and credit: two partly filled columns, never both filled on a line (a zero is blank: a fee's own
    line may have neither). Their signs say which is which where one side is written negative and the other
    never; else the running balance does."""
    (a, first), (b, second) = sparse.items()
    if any(x and y for x, y in zip(first, second, strict=True)):
        return None  # both filled on one line: not one line's two sides
    if signs_speak:
        # One side written negative, the other never: the negative one is money out.
        negative = [c for c, f in sparse.items() if any(v is not None and v < 0 for v in f)]
        if len(negative) != 1 or any(v is not None and v > 0 for v in sparse[negative[0]]):
            return None
        out = negative[0]
        chosen = {"debit": out, "credit": b if out == a else a}
    else:
        moved = [(y or 0) - (x or 0) for x, y in zip(first, second, strict=True)]
        way = _orientation(moved, balances, table.order)
        if way is None:
            # No balance says: the header's words may, within names Zeus does not know (`Funds Out`, `Funds In`).
            way = credit_second(table.header[a], table.header[b])
        if way is None:
            # Nor they: a card named on every line does, by the payments it thanks its owner for (CIBC's).
            way = card_paid_in(table.lines, first, second)
        if way is None:
            return None
        chosen = {"debit": a, "credit": b} if way else {"debit": b, "credit": a}
    debit, credit = sparse[chosen["debit"]], sparse[chosen["credit"]]
    moved = [abs(y or 0) - abs(x or 0) for x, y in zip(debit, credit, strict=True)]
    if not _explained(table.money_columns, chosen, moved):
        return None
    # A payment the card thanks its owner for is money in: a balance that reads it as out is what is owed, and
    # both sides turn (TD's).
    if not signs_speak and thanked_only_in(table.lines, debit):
        return {"debit": chosen["credit"], "credit": chosen["debit"]}
    return chosen


def _other_half(table: _Table, named: dict[str, int], taken: set[int]) -> dict[str, int] | None:
    """A header that names one of debit and credit (`Debit`, and a `Paid in` Zeus does not know): the other
    is the one column of money never filled on a line where the named one is (a zero is blank: a fee's own
    line has neither), and filled where it is not."""
    have, want = next(iter(named.items()))
    other = "credit" if have == "debit" else "debit"
    mine = table.figures(want)
    if mine is None:
        return None
    candidates = []
    for c in table.free():
        f = table.figures(c) if c not in taken and c != want else None
        if f is not None and any(f) and not any(x and y for x, y in zip(mine, f, strict=True)):
            candidates.append(c)
    return {have: want, other: candidates[0]} if len(candidates) == 1 else None


def _description(table: _Table, taken: set[int]) -> int | None:
    texts = []
    for c in table.free():
        values = table.filled(c)
        if c in taken or not values or table.figures(c) is not None or any(is_date_cell(v) for v in values):
            continue
        if len(table.lines) > 1 and len(set(values)) == 1:
            continue  # the same on every line: the account's number or its holder, not what a line was
        texts.append((sum(len(v) for v in values) / len(table.lines), -c))
    return -max(texts)[1] if texts else None


def _currency(table: _Table, taken: set[int]) -> int | None:
    for c in table.free():
        values = table.filled(c)
        if c not in taken and values and all_codes(values):
            return c
    return None


def _pushed_out(cell: str) -> bool:
    """Whether a cell past the header's last column may be one a comma inside a line's text pushed there: a
    figure or a date. Words are a bank's note beyond its columns (DBS's `CSHBACK 100.00`), which moves none."""
    cell = cell.strip()
    return is_figure(cell) or is_date_cell(cell)


def infer_mapping(records: list[list[str]]) -> tuple[int, dict[str, int]] | None:
    """(the index of the first transaction line, a resolved mapping by column index) for a table whose
    header words (if it has a header) leave roles unnamed; None unless the cells leave one reading."""
    lines = _transaction_lines(records)
    if lines is None:
        return None
    start, found = lines
    if max(len(records[i]) for i in found) > MAX_COLUMNS:
        return None
    named, header = _header_names(records, start)
    if header is not None and any(
        len(records[i]) < len(header) - 1 or any(_pushed_out(c) for c in records[i][len(header) :]) for i in found
    ):
        return None  # lines shorter or longer than their header: its columns and theirs do not line up
    table = _Table([records[i] for i in found], named, header)
    date = _dates(table, header)
    if date is None:
        return None
    table.order = _order(table.values(date))
    money = _money(table, {date})
    if money is None:
        return None
    mapping = {"date": date, **money}
    taken = set(mapping.values()) | set(named)
    for key in ("direction", "description", "currency", "external_id", "status", "fee", "tax"):
        column = next((c for c, k in named.items() if k == key), None)
        if column is None and key == "direction":
            # A column of DEBIT and CREDIT under a name Zeus does not know (Cembra's `Type`) says each line's way.
            column = next((c for c in table.free() if c not in taken and names_sides(table.values(c))), None)
        elif column is None and key == "description":
            column = _description(table, taken)
        elif column is None and key == "currency":
            column = _currency(table, taken)
        if column is not None:
            mapping[key] = column
            taken.add(column)
    return start, mapping

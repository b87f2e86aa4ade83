"""A table's currencies: a column of currency codes its header does not name (PayPal's Dutch `Valuta`, which is a
value date in German), and a wallet's statement that keeps a balance in each currency (PayPal's `Balance` in each
line's currency, DEGIRO's `Saldo` beside a currency of its own), whose currencies' lines are the lines of that
currency's account: a file imported into one account reads the lines in that account's currency alone. Pure."""

from collections.abc import Callable
from decimal import Decimal

from zeus.errors import ValidationFailed
from zeus.money import CURRENCY_EXPONENTS


def all_codes(cells) -> bool:
    """Whether every one of some cells is a currency code (`EUR`, `usd`)."""
    return all(cell.strip().upper() in CURRENCY_EXPONENTS for cell in cells)


def codes_column(ahead: list[tuple[int, list[str]]], mapping: dict) -> dict:
    """The mapping with the one column no key takes whose every filled cell is a currency code, where more than one
    code is written there, as the currency column; else the mapping as it was."""
    if "currency" in mapping:
        return mapping
    taken = {index for key, index in mapping.items() if key != "date_format"}
    width = min((len(record) for _, record in ahead), default=0)
    found = []
    for column in range(width):
        codes = {record[column].strip().upper() for _, record in ahead} - {""}
        if column not in taken and len(codes) > 1 and all_codes(codes):
            found.append(column)
    return {**mapping, "currency": found[0]} if len(found) == 1 else mapping


def _figure_column(ahead: list[tuple[int, list[str]]], balance: int) -> int:
    """The balance's figures' column: the one after it where the named column holds currency codes (DEGIRO's
    `Saldo` over its currency and, unnamed, the figure)."""
    cells = [record[balance].strip() for _, record in ahead if len(record) > balance and record[balance].strip()]
    return balance + 1 if cells and all_codes(cells) else balance


def _steps(lines: list[tuple[str, Decimal, Decimal]]) -> tuple[int, int, int]:
    """Over lines oldest first: how many follow their own currency's last balance (zero before its first line), how
    many could (every line but the first), and how many follow the line before them whatever its currency."""
    last: dict[str, Decimal] = {}
    own = could = shared = 0
    previous = None
    for code, figure, after in lines:
        if code in last or previous is not None:
            # A currency first met after another's lines opens its own balance from zero.
            could += 1
            own += after == last.get(code, 0) + figure
        shared += previous is not None and after == previous + figure
        last[code], previous = after, after
    return own, could, shared


def apart(ahead: list[tuple[int, list[str]]], mapping: dict, balance: int | None, read: Callable) -> bool:
    """Whether the table's first lines keep a balance per currency: two currencies or more, and more of their lines
    follow their own currency's last balance than follow the line before them, at least half of those that could.
    Either order of the lines is tried (a wallet lists its newest line first or last)."""
    if balance is None or "currency" not in mapping or "amount" not in mapping:
        return False
    column, lines = _figure_column(ahead, balance), []
    for _, record in ahead:
        if len(record) <= max(mapping["currency"], mapping["amount"], column):
            continue
        try:
            figure, after = read(record[mapping["amount"]]), read(record[column])
        except ValidationFailed:
            continue
        if figure and after is not None:
            lines.append((record[mapping["currency"]].strip().upper(), figure, after))
    if len({code for code, _, _ in lines}) < 2:
        return False
    return any(own > shared and 2 * own >= could for own, could, shared in (_steps(lines), _steps(lines[::-1])))

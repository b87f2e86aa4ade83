"""What a table's first lines (up to inference.LOOKAHEAD of them) say about how to read every line of it,
where a header's words alone cannot: which part of a date is the day, whether a name written over two
columns is the currency and the figure, and whether figures written unsigned are money out. Pure."""

import re

from assets.statements.inference import dates_day_first
from zeus.money import CURRENCY_EXPONENTS

# A figure written with its sign, or negative in brackets (`(150.00)`), as a figure cell opens.
_PLUS = re.compile(r"^\+")
_MINUS = re.compile(r"^\s*(?:-|\()")


def _column(ahead: list[tuple[int, list[str]]], index: int) -> list[str]:
    return [record[index].strip() for _, record in ahead if len(record) > index and record[index].strip()]


def day_first(ahead: list[tuple[int, list[str]]], mapping: dict, *, default: bool) -> bool:
    """The file's own dates say which part is the day, before the account's country guesses."""
    return dates_day_first(_column(ahead, mapping["date"]), default=default)


def one_name_over_two(ahead: list[tuple[int, list[str]]], mapping: dict) -> dict:
    """The mapping with check_mapping's reading of one name over two columns (DEGIRO's `Mutatie`: the
    currency under the name, the figure in the unnamed column beside it) kept only where the named column's
    cells are currency codes; where they are figures (M&S's `Amount`, a `CR` beside a payment in the unnamed
    column) the named column is the amount and names no currency."""
    named = mapping.get("named_amount")
    rest = {k: v for k, v in mapping.items() if k != "named_amount"}
    if named is None or all(v.upper() in CURRENCY_EXPONENTS for v in _column(ahead, named)):
        return rest
    rest.pop("currency", None)
    return {**rest, "amount": named}


def credits_marked(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the amount column marks its money in and leaves the rest bare: no figure written negative and
    some written with a `+` (a card's `+ £1,100.00` payment among unsigned purchases). Its bare figures are
    then money out; a direction column, where there is one, says the way instead."""
    if "amount" not in mapping or "direction" in mapping:
        return False
    cells = _column(ahead, mapping["amount"])
    return any(_PLUS.match(c) for c in cells) and not any(_MINUS.match(c) for c in cells)

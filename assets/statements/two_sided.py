"""Tables whose every line is a transfer with a source side and a target side, each with its own amount and
currency (Wise's transaction history, in English or Portuguese): the side in the importing account's currency is its
money, out of the source with its fee on top, into the target; a line with neither side in that currency is another
balance's. Pure."""

from collections.abc import Iterator
from decimal import Decimal

from django.utils.translation import gettext

from assets.rules.text import fold
from assets.statements.cell_words import NOT_BOOKED
from assets.statements.cells import figure
from assets.statements.dates import read_date
from assets.statements.rows import Row, TableIds, clean_description, signed_amount

# Each role's header names, folded: English, then Portuguese.
_NAMES = {
    "id": ("id", "numero da transferencia"),
    "status": ("status", "situacao"),
    "direction": ("direction", "direcao"),
    "date": ("finished on", "concluida em"),
    "source_fee": ("source fee amount", "valor da tarifa de origem"),
    "source_name": ("source name", "nome de origem"),
    "source": ("source amount (after fees)", "valor de origem (tarifas inclusas)"),
    "source_currency": ("source currency", "moeda de origem"),
    "target_name": ("target name", "nome do beneficiario"),
    "target": ("target amount (after fees)", "valor de destino (tarifas inclusas)"),
    "target_currency": ("target currency", "moeda de destino"),
}


def layout(header: list[str]) -> dict[str, int] | None:
    """The columns of a two-sided header, or None unless it names every role."""
    folded = [fold(cell) for cell in header]
    columns = {}
    for role, names in _NAMES.items():
        found = next((i for i, cell in enumerate(folded) if cell in names), None)
        if found is None:
            return None
        columns[role] = found
    return columns


def rows(reader, sides: dict[str, int], *, currency: str) -> Iterator[Row]:
    """The rows of the lines under a two-sided header: a line leaving the `currency` side is money out by its source
    amount and fee, one arriving on it money in by its target amount; unbooked lines and other balances' are none.
    `reader`: the records under the header, its `line_num` each one's line."""
    ids, code = TableIds("csv"), currency.upper()
    for record in reader:
        line = reader.line_num
        cells = {role: record[i].strip() if i < len(record) else "" for role, i in sides.items()}
        if not any(cells.values()) or fold(cells["status"]) in NOT_BOOKED:
            continue
        row = Row(key=str(line))
        try:
            row.occurred_on = read_date(cells["date"], day_first=True)
        except ValueError:
            row.problem("date", gettext("%(text)r is not a date.") % {"text": cells["date"]})
        # `IN` arrives on the target side, `OUT` leaves the source side; a conversion between the holder's own
        # balances (`NEUTRAL`) does both, and the importing account's is the side in its currency.
        way = fold(cells["direction"])
        if way != "in" and cells["source_currency"].upper() == code:
            value, text, sign = _sum(cells["source"], cells["source_fee"]), cells["target_name"], -1
        elif way != "out" and cells["target_currency"].upper() == code:
            value, text, sign = _sum(cells["target"]), cells["source_name"], 1
        else:
            continue  # from one of the holder's other balances to another
        if value is None:
            row.problem("amount", gettext("%(text)r is not an amount.") % {"text": cells["source"] or cells["target"]})
        elif value:
            signed_amount(row, sign * value, code)
        else:
            continue
        row.description = clean_description(text)
        ids(row, cells["id"])
        yield row


def _sum(*texts: str) -> Decimal | None:
    values = [figure(text, ".") if text else Decimal(0) for text in texts]
    return None if None in values else sum(values, Decimal(0))

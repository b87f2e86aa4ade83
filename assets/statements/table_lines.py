"""Which lines of a bank's table are booked transactions, and the dates of its cells. Pure."""

import datetime as dt
import re

from django.utils.translation import gettext

from assets.rules.text import fold
from assets.statements import conventions
from assets.statements.cell_words import NOT_BOOKED, NOT_YET
from assets.statements.cells import MONEY_SIGNS
from assets.statements.dates import read_date
from assets.statements.headers import names_columns
from zeus.errors import ValidationFailed

# A totals row under the table (`TỔNG TIỀN`, `Total`, `Summe`, Axis Bank's `TRANSACTION TOTAL DR/CR`): no date,
# the columns' sums.
_TOTAL = re.compile(r"^(?:transactions? )?(?:tong|cong|total|totals|summe|sum|totale)\b")
_DIGIT = re.compile(r"\d")
_PENDING = re.compile(r"\s*pending\b")
# A broker's kind for securities alone coming in or leaving (Nordnet's Norwegian `UTTAK VP`, `INNLØSN. UTTAK VP`,
# `INNLEGG VP`, its Swedish `UTTAG VP`, `INLÄGG VP`; VP, verdipapir, a security): its figure is the securities' value,
# the cash balance does not move. Its cash, where there is any, comes on a line of its own (`INNL. VP LIKVID`).
_SECURITIES_ALONE = re.compile(r"^(?:\S+ )?(?:uttak|innlegg|uttag|inlagg) vp$")


def _description(record: list[str], mapping: dict) -> str:
    column = mapping.get("description")
    return fold(record[column]) if column is not None and len(record) > column else ""


def balance_label(record: list[str], mapping: dict) -> bool:
    """Whether the line is a balance's (`Opening balance`, `Saldo`): its label stands in the description, or,
    where that is blank, in whichever cell holds it alone (a Volksbank's `Anfangssaldo` under its customer
    reference)."""
    return _labelled(record, _description(record, mapping))


def _labelled(record: list[str], folded: str) -> bool:
    return any(conventions.BALANCE_LINE.match(cell) for cell in ([folded] if folded.strip() else map(fold, record)))


def not_a_transaction(record: list[str], mapping: dict) -> bool:
    """A line the table holds that is no booked transaction: a status the bank has not booked, or, with no
    date, a totals row or a note under the table (a closing balance, the bank's footer)."""
    status = fold(record[mapping["status"]]) if "status" in mapping and len(record) > mapping["status"] else ""
    if status in NOT_BOOKED or status.partition(" ")[0] in NOT_YET:
        return True
    if len(record) > mapping["date"] and fold(record[mapping["date"]]).strip(" -") in NOT_BOOKED:
        return True  # a status written where the booking date goes (a card's `Pending` lines): not booked yet
    # A column of kinds saying `Pending` (a US bank's `Type`, no status column; USAA's category `PENDING DEBIT CARD
    # PURCHASE`): not booked yet. `Pending` alone, not every status word: `Huy` (cancelled) is a Vietnamese given name
    # in a payee's column too.
    folded_cells = [fold(cell) for cell in record]
    if any(_PENDING.match(cell) for c, cell in enumerate(folded_cells) if c != mapping.get("description")):
        return True
    if any(_SECURITIES_ALONE.match(cell) for cell in folded_cells):
        return True  # in whichever column the kind stands, the description's too: the pattern is the whole cell
    folded = _description(record, mapping)
    if _labelled(record, folded):
        return True
    if conventions.HOLD.search(folded):
        return True  # a card hold, or a card payment not settled: listed before the bank books it
    figures = [record[mapping[k]] for k in conventions.MONEY_KEYS if k in mapping and len(record) > mapping[k]]
    written = any(f.strip() for f in figures)
    day = record[mapping["date"]].strip() if len(record) > mapping["date"] else ""
    texts = [record[mapping[k]] for k in ("description", "external_id") if k in mapping and len(record) > mapping[k]]
    # Figures with no date and no text are the columns' sums, labelled (`TỔNG TIỀN`) or not (Techcombank's).
    unlabelled_sums = not any(t.strip() for t in texts)
    if day:
        # A footer across the date column (`Printed on …`) with no figure, a label over the columns' sums (`Số
        # dòng = 321`), the header again over a second table (no digit under its money columns), or a total whose
        # sum runs into the date column (UBS's card: `Total des écritures de carte` over `-8346.20`).
        figured = any(_DIGIT.search(f) for f in figures)
        total = bool(_TOTAL.match(folded))
        return (not figured or unlabelled_sums or total) and not _is_date(day, mapping.get("date_format"))
    # A line dated in another column but with no booking date has happened and is not booked yet (OTP's
    # `FÜGGŐ TÉTEL`): pending. A line with no date anywhere stays a bad row, named in the 400, unless it is only
    # column names (another table's header under this one), sums or a balance.
    pending = any(_is_date(cell.strip(), None) for cell in record if cell.strip())
    totals = any(_TOTAL.match(c) or conventions.UNDATED_BALANCE.match(c) for c in map(fold, record))
    return not written or unlabelled_sums or pending or totals or names_columns(record)


def _is_date(text: str, date_format: str | None) -> bool:
    try:
        read_cell_date(text, date_format)
    except ValidationFailed:
        return False
    return True


def read_cell_date(text: str, date_format: str | None, day_first: bool = True) -> dt.date:
    """A cell's date in the mapping's `date_format`, or as banks write one; ValidationFailed naming it otherwise."""
    if date_format:
        # A bank may write a time after the date ("30/11/2026 14:02:37"); the format names the date part.
        head = text.split()[0] if text and " " not in date_format.strip() else text
        try:
            return dt.datetime.strptime(head, date_format).date()
        except ValueError:
            raise ValidationFailed(
                gettext("%(text)r does not match the date format %(date_format)s.")
                % {"text": text, "date_format": date_format}
            ) from None
    try:
        return read_date(text, day_first=day_first)
    except ValueError:
        raise ValidationFailed(
            gettext("%(text)r is not a date; name its format in the mapping (date_format).") % {"text": text}
        ) from None


def paid_elsewhere(row_direction: str | None, funding: str) -> bool:
    """Whether a wallet's money out was paid from elsewhere (Venmo's `Funding Source` naming a bank or a card,
    not the `Venmo balance`): the statement lists it, but the wallet's balance did not pay it."""
    return row_direction == "expense" and bool(funding.strip()) and "balance" not in fold(funding)


# A savings pocket's name in the product column of a wallet's statement (Revolut's `Savings`, Italian `Risparmi`).
_SAVINGS = frozenset(
    fold(name) for name in ("savings", "deposit", "pocket", "risparmi", "ahorros", "épargne", "ersparnisse", "sparen",
                            "poupanças", "poupança")
)  # fmt: skip


def in_savings(product: str) -> bool:
    """Whether a line is a savings pocket's (Revolut lists its pockets' lines under the current account's, each
    pocket with a balance of its own): another account's line, which the current account's file does not hold."""
    return fold(product).strip() in _SAVINGS


# A payout a marketplace's statement writes only in its text, its figure columns blank (Etsy's `$68.87 sent to your
# bank account`): that money left the balance for the holder's bank.
_PAID_OUT = re.compile(rf"^\s*([{MONEY_SIGNS}]?\s?\d[\d,.]*)\s+sent to your bank account\s*$", re.IGNORECASE)


def paid_out_in_words(text: str) -> str | None:
    """The figure of a payout written only in its line's text, as written; None for any other text."""
    return match[1] if (match := _PAID_OUT.match(text)) else None

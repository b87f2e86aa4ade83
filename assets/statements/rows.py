"""What every statement parser yields: one row read from the file, or the problems of that row. Pure."""

import datetime as dt
import hashlib
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from zeus.errors import ValidationFailed
from zeus.money import MAX_AMOUNT, InvalidCurrency, normalize_currency, quantize
from zeus.text import is_storable


class ImportRejected(ValidationFailed):
    code = "INVALID_CSV"


@dataclass
class Row:
    """`key` names the row in error reports (a CSV line number, an OFX FITID, a CAMT entry number)."""

    key: str
    occurred_on: dt.date | None = None
    amount: Decimal | None = None
    currency: str | None = None
    direction: str | None = None
    description: str = ""
    category: str | None = None
    external_id: str | None = None
    problems: dict[str, list[str]] = field(default_factory=dict)

    def problem(self, name: str, message: str) -> None:
        self.problems.setdefault(name, []).append(message)


def signed_amount(row: Row, value: Decimal, currency: str, *, name: str = "amount") -> None:
    """Sets amount, direction and currency from a signed figure: negative is money out."""
    try:
        currency = normalize_currency(currency)
    except InvalidCurrency as exc:
        row.problem("currency", exc.message)
        return
    if not isinstance(value, Decimal) or not value.is_finite():
        row.problem(name, _("Not a number."))
        return
    # Bounded before it is quantized: quantizing 1E+30 or forty nines is an InvalidOperation.
    if abs(value) > MAX_AMOUNT:
        row.problem(name, _("The amount is too large."))
        return
    amount = quantize(abs(value), currency)
    if amount == 0:
        row.problem(name, _("The amount is zero."))
        return
    row.amount, row.currency = amount, currency
    row.direction = "expense" if value < 0 else "income"


def fingerprinted_row(
    key: str,
    *,
    occurred_on: dt.date | None,
    amount: Decimal | None,
    currency: str,
    description: str | None,
    fingerprint: "Fingerprints",
) -> Row:
    """A row of a format whose lines carry no id (QIF, Norma 43), from what its library read: its date and signed
    amount, each named missing where the file leaves it out, its text, and a fingerprint (Fingerprints) when
    nothing is wrong with it."""
    row = Row(key=key, occurred_on=occurred_on)
    if occurred_on is None:
        row.problem("date", _("The date is missing."))
    if amount is None:
        row.problem("amount", _("The amount is missing."))
    else:
        signed_amount(row, amount, currency)
    row.description = clean_description(description)
    if not row.problems:
        row.external_id = fingerprint(row)
    return row


def storable_row(row: Row) -> None:
    """The text rule (zeus/text.py) for what a row would store: a NUL in an id is the row's problem, here,
    for every format, rather than the database's in the middle of the import."""
    for name in ("external_id", "description", "category"):
        value = getattr(row, name)
        if value is not None and not is_storable(value):
            row.problem(name, _("Contains a NUL character."))
    if row.external_id is not None and len(row.external_id) > 100:
        row.problem("external_id", _("At most %(count)s characters.") % {"count": 100})


def clean_description(text: str | None) -> str:
    # NFC: Windows-1258 files (and some banks' UTF-8) write Vietnamese tones as combining marks.
    text = unicodedata.normalize("NFC", " ".join((text or "").replace("\x00", " ").split()))
    return text[:200]


class Occurrences:
    """How many times each key (a bank's reference) came before in a file, from 0: banks repeat a reference on
    the lines of one batch, or on a transfer and its fee, and its nth use keeps them apart."""

    def __init__(self):
        self.seen: dict = {}

    def __call__(self, key) -> int:
        nth = self.seen.get(key, 0)
        self.seen[key] = nth + 1
        return nth


class Fingerprints:
    """A stable id for rows of formats that carry none (QIF, a bank CSV without a reference column): the
    row's own fields plus how many identical rows came before it in the file, so two equal coffees on one day
    stay two, and re-importing the same file finds both again."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.occurrence = Occurrences()

    def __call__(self, row: Row) -> str:
        basis = f"{row.occurred_on}|{row.direction}|{row.amount}|{row.currency}|{row.description.casefold()}"
        digest = hashlib.sha256(basis.encode()).digest()[:16]
        return f"{self.prefix}:{digest.hex()}:{self.occurrence(digest)}"


class TableIds:
    """Each row's id in a bank's table: the bank's reference, counted by its nth use in the file (a bank books a
    transfer's fee under the transfer's own reference), else a fingerprint when nothing is wrong with the row."""

    def __init__(self, prefix: str):
        self.prefix, self.fingerprint, self.occurrence = prefix, Fingerprints(prefix), Occurrences()

    def __call__(self, row: Row, reference: str | None) -> None:
        if reference:
            nth = self.occurrence(reference)
            row.external_id = (f"{self.prefix}:{reference}" + (f":{nth}" if nth else ""))[:100]
        elif not row.problems:
            row.external_id = self.fingerprint(row)


class RowIds:
    """Each row's id in a format whose lines may carry the bank's reference (MT940, CODA, CFONB 120, BAI2, 1C): the
    reference, scoped by the account (a hash) and counted by its nth use in the file, where the line has one;
    else a fingerprint. A row with problems gets none: the file is refused."""

    def __init__(self, prefix: str):
        self.prefix, self.fingerprint, self.occurrence = prefix, Fingerprints(prefix), Occurrences()

    def __call__(self, row: Row, reference: str = "", scope: str = "") -> None:
        if reference:
            row.external_id = f"{self.prefix}:{scope}:{reference}:{self.occurrence(reference)}"[:100]
        elif not row.problems:
            row.external_id = self.fingerprint(row)

"""BAI2 files (the Bank Administration Institute's cash-management balance reporting format, Version 2, which
North American and some UK banks send), read by the `bai2` library: a file header (01), groups (02, naming the
as-of date and perhaps the currency), accounts (03, the account number, perhaps its currency, and summaries),
each account's transaction details (16: a type code, an amount in minor units, a funds type that may carry a value
date, the bank's reference, text) and the trailers (49, 98, 99) with their control totals and record counts. A
record goes on in continuation records (88). Each detail is a row; summaries and balances are none.

The library reads a whole section into objects at once, so it is handed one record at a time (its own parsers read
each record's fields), and the account, group and file trailers are checked here against the records read, as the
library's section parsers would: memory is bounded by a record, not an account or the file."""

import hashlib
from collections.abc import Iterator
from decimal import Decimal
from typing import BinaryIO

from django.utils.translation import gettext as _

from assets.statements.records import lines_of, refused
from assets.statements.rows import Row, RowIds, clean_description, signed_amount
from zeus.money import InvalidCurrency, exponent

CODE = "INVALID_BAI2"


def _records(source: BinaryIO) -> Iterator[list[str]]:
    """Each record with its continuation (88) lines, as text (the format is ASCII; Latin-1 reads any byte)."""
    return _records_of(line.decode("latin-1").strip() for line in lines_of(source))


def _summary_fields(lines: list[str]) -> list[str]:
    """An account record's fields across its continuation records. The spec ends each physical record with `/`
    and goes on with the next field in the continuation; the library adds that field break only where the commas
    before it are not a multiple of four (one summary's worth), and so runs a summary's type code split from its
    amount (BAI's own sample: `...,190/` then `88,500000,...`) into one figure, `190500000`, a type code it
    refuses. Here every break is a field break, and an empty field where a summary's type code would stand (a
    bank's trailing comma before the `/`) is dropped, as the library drops its last one."""
    fields = ",".join(line[3:].removesuffix("/") for line in lines).split(",")
    kept, rest = fields[:2], fields[2:]
    while rest:
        if not rest[0]:
            rest.pop(0)
            continue
        item, rest = rest[:4], rest[4:]
        kept += item
        funds = item[3] if len(item) == 4 else ""
        if funds == "S":
            rest[:3] = _zeroed(rest[:3])
        extra = {"S": 3, "V": 2}.get(funds, 0)
        if funds == "D" and rest and rest[0].isdigit():
            extra = 1 + 2 * int(rest[0])
        kept, rest = kept + rest[:extra], rest[extra:]
    return kept


class _Records:
    """The library's record iterator (its `IteratorHelper`), over records built by its own builders but for the
    account record's fields, which `_summary_fields` joins."""

    def __init__(self, lines: list[str]):
        from bai2.constants import RecordCode
        from bai2.helpers import RecordBuilderFactory
        from bai2.models import Record

        self.records = []
        for record in _records_of(lines):
            rows = [(RecordCode(line[:2]), line[3:]) for line in record]
            if rows[0][0] == RecordCode.account_identifier:
                self.records.append(Record(code=rows[0][0], fields=_summary_fields(record), rows=rows))
            else:
                built = RecordBuilderFactory[rows[0][0]](rows)
                if built.code == RecordCode.transaction_detail and built.fields[2:3] == ["S"]:
                    built.fields[3:6] = _zeroed(built.fields[3:6])
                self.records.append(built)
        self._next = iter(self.records)
        self.current_record = None
        self.advance()

    def advance(self):
        self.current_record = next(self._next)


def _zeroed(amounts: list[str]) -> list[str]:
    # Distributed availability (funds type S): the spec lets a bank leave a day's amount empty for zero (BAI's own
    # sample: `S,,200000,300000`), where the library reads every one as a number.
    return [amount or "0" for amount in amounts]


def _records_of(lines: list[str]) -> Iterator[list[str]]:
    record: list[str] = []
    for line in lines:
        if line.startswith("88,") and record:
            record.append(line)
            continue
        if record:
            yield record
        record = [line]
    if record:
        yield record


def _parse(parser_name: str, lines: list[str]):
    from bai2 import parsers  # loaded only when a BAI2 file arrives

    try:
        helper = _Records(lines)
        return getattr(parsers, parser_name)(helper, check_integrity=True).parse(), helper
    except Exception as exc:  # ParsingException, IntegrityException, NotSupportedYetException, ValueError, ...
        raise refused("BAI2", str(exc) or type(exc).__name__, CODE) from None


class _Totals:
    """A group's or the file's running sums, checked against its trailer as the library checks them."""

    def __init__(self, records: int):
        self.total, self.children, self.records = 0, 0, records

    def add(self, total: int, records: int) -> None:
        """A child section read whole (an account, a group): its total and its records count toward this one's."""
        self.total, self.children, self.records = self.total + total, self.children + 1, self.records + records

    def close(self, trailer: list[str], message: str, trailer_total, children, records) -> None:
        """The section's `trailer` record counted, and what it states checked against what was read."""
        self.records += len(trailer)
        # The library's own rules: a section without children is refused, totals and counts must agree.
        if not self.children or trailer_total != self.total or (children, records) != (self.children, self.records):
            raise refused("BAI2", message, CODE)


class _Account:
    """The account being read: its header (03), the sums its trailer (49) must state as the library's account
    parser checks them (its details' amounts and its header's summaries; its records), and its rows' currency
    and the scope of their references."""

    def __init__(self, header, record: list[str], currency: str):
        self.total = sum(item.amount or 0 for item in header.summary_items)
        self.records = len(record)
        self.currency = header.currency or currency
        self.scope = hashlib.sha256((header.customer_account_number or "").encode()).hexdigest()[:10]


def bai2_rows(source: BinaryIO, *, currency: str) -> Iterator[Row]:
    ids = RowIds("bai2")
    index = 0
    file_totals = group_totals = None
    group = group_currency = None
    account: _Account | None = None
    ended = False
    for record in _records(source):
        code = record[0][:3]
        if ended:
            raise refused("BAI2", _("records follow the file trailer (99)"), CODE)
        if account is not None:
            account.records += len(record)
            if code == "16,":
                detail, _helper = _parse("TransactionDetailParser", record)
                account.total += detail.amount or 0
                if (row := _detail_row(detail, account, group, index + 1, ids)) is not None:
                    index += 1
                    yield row
            elif code == "49,":
                trailer, _helper = _parse("AccountTrailerParser", record)
                if (trailer.account_control_total, trailer.number_of_records) != (account.total, account.records):
                    message = _("an account trailer's (49) control total or record count does not match its records")
                    raise refused("BAI2", message, CODE)
                group_totals.add(account.total, account.records)
                account = None
            else:
                raise refused("BAI2", _("an account (03) ends without its trailer (49)"), CODE)
            continue
        if code == "03,":
            if group is None:
                raise refused("BAI2", _("an account (03) stands outside a group (02)"), CODE)
            header, _helper = _parse("AccountIdentifierParser", record)
            account = _Account(header, record, group_currency or currency)
            continue
        if code == "01,":
            if file_totals is not None:
                raise refused("BAI2", _("a second file header (01)"), CODE)
            _parse("Bai2FileHeaderParser", record)
            file_totals = _Totals(len(record))
        elif file_totals is None:
            raise refused("BAI2", _("it does not begin with a file header (01)"), CODE)
        elif code == "02," and group is None:
            group, helper = _parse("GroupHeaderParser", record)
            # The library puts USD where the group names no currency; the file's own field says whether it did.
            fields = helper.current_record.fields if helper.current_record else []
            group_currency = fields[5] if len(fields) > 5 and fields[5] else None
            group_totals = _Totals(len(record))
        elif code == "98," and group is not None:
            trailer, _helper = _parse("GroupTrailerParser", record)
            group_totals.close(
                record,
                _("a group trailer's (98) control total or counts do not match its records"),
                trailer.group_control_total,
                trailer.number_of_accounts,
                trailer.number_of_records,
            )
            file_totals.add(group_totals.total, group_totals.records)
            group = None
        elif code == "99,":
            trailer, _helper = _parse("Bai2FileTrailerParser", record)
            file_totals.close(
                record,
                _("the file trailer's (99) control total or counts do not match its records"),
                trailer.file_control_total,
                trailer.number_of_groups,
                trailer.number_of_records,
            )
            ended = True
        else:
            raise refused("BAI2", _("an unexpected record %(code)s") % {"code": record[0][:2]}, CODE)
    if not ended or account is not None:
        raise refused("BAI2", _("it ends before its file trailer (99)"), CODE)


def _detail_row(detail, account: _Account, group, index: int, ids: RowIds) -> Row | None:
    from bai2.constants import FundsType, TypeCodeTransaction

    if not detail.amount or detail.type_code.transaction == TypeCodeTransaction.misc:
        return None  # a zero line moves nothing; 890, "contains non-monetary information", moves nothing either
    currency = account.currency
    row = Row(key=f"detail {index}")
    value_date = (detail.availability or {}).get("date") if detail.funds_type == FundsType.value_dated else None
    row.occurred_on = value_date or group.as_of_date
    transaction = detail.type_code.transaction
    if transaction not in (TypeCodeTransaction.credit, TypeCodeTransaction.debit):
        row.problem(
            "amount",
            _("Type code %(code)s is neither a credit nor a debit.") % {"code": detail.type_code.code},
        )
    else:
        try:
            # Amounts are written in the currency's minor units (cents), with no decimal point.
            amount = Decimal(detail.amount).scaleb(-exponent(currency))
        except (InvalidCurrency, KeyError):
            amount = Decimal(detail.amount).scaleb(-2)  # signed_amount says what is wrong with the currency
        signed_amount(row, -amount if transaction == TypeCodeTransaction.debit else amount, currency)
    row.description = clean_description(detail.text)
    ids(row, detail.bank_reference or "", account.scope)
    return row

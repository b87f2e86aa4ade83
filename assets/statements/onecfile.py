"""The Russian 1C client-bank exchange file (`1CClientBankExchange`, the `kl_to_1c.txt` every Russian bank's
client-bank system exports): key=value lines in Windows-1251, or cp866 where the header says `Кодировка=DOS`
(a file in UTF-8, which some exporters write whatever they declare, is read as UTF-8); a header naming the
statement's accounts (`РасчСчет`), account sections (`СекцияРасчСчет` … `КонецРасчСчет`: opening balance,
`ВсегоСписано`, `ВсегоПоступило`, closing balance) and documents (`СекцияДокумент=` … `КонецДокумента`), up to
`КонецФайла`. Each document is one row, or two where both its accounts are the statement's (a transfer between
them): money out of the account that pays it (`ПлательщикСчет`, else `ПлательщикРасчСчет`), dated `ДатаСписано`,
money in to the account it pays (`ПолучательСчет`, else `ПолучательРасчСчет`), dated `ДатаПоступило`, each date
falling back to `Дата`. The side is never read from which date is filled: a bank's own order can carry both.

In a file of exactly one account, a document that leaves one side's account blank while the other names a
foreign account is that account's (banks leave their own client's number out of cash and fee orders: the
blank side can be no other); a document naming neither side as the statement's otherwise refuses the file. The
currency is the account's: digits 6-8 of a Russian account number are its ISO 4217 numeric code (810, the
rouble's old code, and 643 RUB; 840 USD, 978 EUR, 156 CNY…); an account of another shape, or a code that is no
currency, is in roubles. Where an account's sections state `ВсегоСписано` and `ВсегоПоступило`, its documents
must add up to them (as BAI2's trailers are checked): a file whose documents do not was cut or edited, and
importing it would book other figures than the bank's, so it is refused whole.

Read here, not by a library: `client-bank-1c` (PyPI, 214 lines) checks the file's structure with `assert`
(gone under `python -O`, letting a cut file through), keeps every document in a list, decodes Windows-1251
only and raises on any line it cannot match; `odin-palace-py` parses the whole file into lists in a native
extension and reads no cp866. This reader holds one document (and each account's sums) at a time, and reads a
line of at most MAX_LINE bytes, so memory is bounded by a document, not the file."""

import datetime as dt
import hashlib
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import BinaryIO

from django.utils.translation import gettext as _

from assets.statements.records import refused
from assets.statements.rows import Row, RowIds, clean_description, signed_amount

CODE = "INVALID_1C"
WHAT = "1C"
SIGNATURE = "1CClientBankExchange"
MAX_LINE = 64 * 1024  # the longest line a bank writes is a purpose of 210 characters; a line past this is none
MAX_ACCOUNTS = 1_000
_LINE = re.compile(r"(\w+)\s*(?:=(.*))?")
_AMOUNT = re.compile(r"\d{1,15}(?:[.,]\d{1,4})?")
_BALANCE = re.compile(r"-?\d{1,15}(?:[.,]\d{1,4})?")  # an overdrawn account's balance is below zero
_DATE = re.compile(r"(\d\d)\.(\d\d)\.(\d{4})")
# The header's encoding, read from how its own `Кодировка=` key is written: a cp866 file writes it in cp866.
_DOS = "Кодировка=".encode("cp866")
# The lines that are a bare word: every other line is key=value.
_MARKERS = ("СекцияРасчСчет", "КонецРасчСчет", "КонецДокумента", "КонецФайла")
_TOTALS = ("ВсегоСписано", "ВсегоПоступило")
_PURPOSE = ("НазначениеПлатежа", *(f"НазначениеПлатежа{n}" for n in range(1, 7)))


def _lines(source: BinaryIO, codec: str) -> Iterator[tuple[int, str]]:
    """(number, text) of each non-blank line, without its line end (CRLF, LF or CR) or a byte-order mark."""
    number = 0
    while chunk := source.readline(MAX_LINE + 1):
        if len(chunk) > MAX_LINE and not chunk.endswith(b"\n"):
            raise refused(WHAT, _("line %(number)s is too long") % {"number": number + 1}, CODE)
        if number == 0:
            chunk = chunk.removeprefix(b"\xef\xbb\xbf")
        for raw in chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n").removesuffix(b"\n").split(b"\n"):
            number += 1  # every line counts, blank or not: the number a text editor shows
            if not raw.strip():
                continue
            if b"\x00" in raw:
                raise refused(WHAT, _("line %(number)s holds a NUL byte") % {"number": number}, CODE)
            yield number, raw.decode(codec, errors="replace").strip()


def _account(value: str | None) -> str:
    return "".join((value or "").split())


def currency_of(account: str) -> str:
    """The currency of a Russian account number (its digits 6-8), RUB for any other."""
    code = account[5:8] if len(account) == 20 and account.isdigit() else ""
    if code in ("", "810", "643"):
        return "RUB"
    import pycountry  # loaded only when a 1C file names a foreign-currency account

    found = pycountry.currencies.get(numeric=code)
    # XXX (999) and XTS (963) are ISO's "no currency" and "testing" codes.
    return found.alpha_3 if found and found.alpha_3 not in ("XXX", "XTS") else "RUB"


class _Sums:
    """An account's totals as its sections state them, and its documents' sums."""

    def __init__(self):
        self.stated = [Decimal(0), Decimal(0)]  # out, in
        self.stated_whole = True  # every section stated both totals
        self.sections = 0
        self.read = [Decimal(0), Decimal(0)]


class _Statement:
    def __init__(self):
        self.accounts: dict[str, _Sums] = {}
        self.documents = 0
        self.ended = False

    def account(self, value: str | None, number: int) -> _Sums:
        account = _account(value)
        if not account:
            raise refused(WHAT, _("line %(number)s names no account") % {"number": number}, CODE)
        if account not in self.accounts:
            if self.documents:
                # A document read before it was sided without it.
                raise refused(WHAT, _("account %(account)s is named after the documents") % {"account": account}, CODE)
            if len(self.accounts) >= MAX_ACCOUNTS:
                raise refused(WHAT, _("it names more than %(count)s accounts") % {"count": MAX_ACCOUNTS}, CODE)
            self.accounts[account] = _Sums()
        return self.accounts[account]


def _codec(head: bytes) -> str:
    """The file's encoding, decided once from its head: UTF-8 where the head reads as UTF-8 (a character cut at its
    end aside), whatever the file declares; else cp866 where its own `Кодировка=` key is written in cp866; else
    Windows-1251."""
    try:
        head.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":
            return "utf-8"
    return "cp866" if _DOS in head else "cp1251"


def onec_rows(source: BinaryIO) -> Iterator[Row]:
    codec = _codec(source.read(8192))
    source.seek(0)
    statement = _Statement()
    ids = RowIds("1c")
    lines = _lines(source, codec)
    first = next(lines, (0, ""))[1]
    if first != SIGNATURE:
        raise refused(WHAT, _("it does not begin with %(signature)s") % {"signature": SIGNATURE}, CODE)
    index = 0
    bad = False
    for number, key, value in _fields(lines, between=True):
        if statement.ended:
            raise refused(WHAT, _("line %(number)s follows КонецФайла") % {"number": number}, CODE)
        if key == "КонецФайла":
            statement.ended = True
        elif key == "РасчСчет":
            statement.account(value, number)
        elif key == "СекцияРасчСчет":
            _section(lines, statement, number)
        elif key == "СекцияДокумент":
            document = _document(lines, number)
            statement.documents += 1
            for row in _rows(document, statement, number, ids):
                index += 1
                row.key = f"document {index}"
                bad = bad or bool(row.problems)
                yield row
        elif key.startswith("Конец") or key.startswith("Секция"):
            raise refused(WHAT, _("line %(number)s: %(key)s out of place") % {"number": number, "key": key}, CODE)
    if not statement.ended:
        raise refused(WHAT, _("it ends before КонецФайла: the file is cut short"), CODE)
    if not statement.accounts:
        raise refused(WHAT, _("it names no account (РасчСчет)"), CODE)
    if not bad:
        _check_totals(statement)


def _fields(lines: Iterator[tuple[int, str]], *, between: bool = False) -> Iterator[tuple[int, str, str | None]]:
    """The key=value lines; `between` sections, a line of something else (a stray `"Левая строка"` left between
    two documents of a Rosselkhozbank file) is no field of any and passed over, where inside one it refuses the
    file; a second signature line never is passed over (another file glued on)."""
    for number, text in lines:
        match = _LINE.fullmatch(text)
        if match is None or (match[2] is None and match[1] not in _MARKERS):
            if between and text != SIGNATURE:
                continue
            raise refused(WHAT, _("line %(number)s is not a key=value line") % {"number": number}, CODE)
        yield number, match[1], match[2].strip() if match[2] is not None else None


def _block(lines, end: str, opened: int) -> dict[str, str]:
    """A section's fields up to its `end` marker (an unknown key is kept and never read)."""
    fields: dict[str, str] = {}
    for number, key, value in _fields(lines):
        if key == end:
            return fields
        if key.startswith("Секция") or key.startswith("Конец"):
            message = _("the section opened on line %(opened)s has no %(end)s before line %(number)s")
            raise refused(WHAT, message % {"opened": opened, "end": end, "number": number}, CODE)
        fields[key] = value or ""
    raise refused(WHAT, _("it ends before %(end)s: the file is cut short") % {"end": end}, CODE)


def _amount(value: str | None, name: str, number: int) -> Decimal:
    text = "".join((value or "").split())
    if not (_BALANCE if name.endswith("Остаток") else _AMOUNT).fullmatch(text):
        message = _("%(name)s of the section on line %(number)s is not an amount")
        raise refused(WHAT, message % {"name": name, "number": number}, CODE)
    return Decimal(text.replace(",", "."))


def _section(lines, statement: _Statement, number: int) -> None:
    fields = _block(lines, "КонецРасчСчет", number)
    sums = statement.account(fields.get("РасчСчет"), number)
    sums.sections += 1
    stated = [fields.get(name) or None for name in _TOTALS]
    if None in stated:
        sums.stated_whole = False
        return
    out, into = (_amount(value, name, number) for value, name in zip(stated, _TOTALS, strict=True))
    sums.stated = [sums.stated[0] + out, sums.stated[1] + into]
    opening, closing = fields.get("НачальныйОстаток") or None, fields.get("КонечныйОстаток") or None
    if opening is not None and closing is not None:
        start = _amount(opening, "НачальныйОстаток", number)
        if start + into - out != _amount(closing, "КонечныйОстаток", number):
            message = _("the section on line %(number)s: its opening balance and totals do not give its closing one")
            raise refused(WHAT, message % {"number": number}, CODE)


def _document(lines, number: int) -> dict[str, str]:
    return _block(lines, "КонецДокумента", number)


def _sides(document: dict[str, str], statement: _Statement, number: int) -> list[tuple[str, int]]:
    """The statement's accounts this document moves, each with its sign (-1 money out, 1 money in)."""
    payer = _account(document.get("ПлательщикСчет") or document.get("ПлательщикРасчСчет"))
    payee = _account(document.get("ПолучательСчет") or document.get("ПолучательРасчСчет"))
    sides = [(account, sign) for account, sign in ((payer, -1), (payee, 1)) if account in statement.accounts]
    if not sides and len(statement.accounts) == 1 and bool(payer) != bool(payee):
        (only,) = statement.accounts
        sides = [(only, -1 if not payer else 1)]
    if not sides:
        message = _("the document on line %(number)s names none of the statement's accounts (%(payer)s to %(payee)s)")
        raise refused(WHAT, message % {"number": number, "payer": payer or "-", "payee": payee or "-"}, CODE)
    return sides


def _day(value: str) -> dt.date | None:
    match = _DATE.fullmatch(value)
    if match is None:
        return None
    try:
        return dt.date(int(match[3]), int(match[2]), int(match[1]))
    except ValueError:
        return None


def _rows(document: dict[str, str], statement: _Statement, number: int, ids: RowIds) -> Iterator[Row]:
    text = "".join(document.get("Сумма", "").split())
    amount = Decimal(text.replace(",", ".")) if _AMOUNT.fullmatch(text) else None
    purpose = document.get("НазначениеПлатежа") or " ".join(filter(None, map(document.get, _PURPOSE[1:])))
    for account, sign in _sides(document, statement, number):
        row = Row(key="")
        booked = document.get("ДатаСписано" if sign < 0 else "ДатаПоступило") or document.get("Дата", "")
        row.occurred_on = _day(booked)
        if row.occurred_on is None:
            row.problem("date", _("%(value)s is not a date (DD.MM.YYYY).") % {"value": booked or "-"})
        if amount is None:
            row.problem("amount", _("%(value)s is not an amount.") % {"value": text or "-"})
        elif amount:
            statement.accounts[account].read[0 if sign < 0 else 1] += amount
            signed_amount(row, sign * amount, currency_of(account))
        else:
            continue  # a zero document (a notice) moves no money
        # Who the money went to, or came from: the name before the purpose, which the 200-character cut may end.
        party = "Получатель" if sign < 0 else "Плательщик"
        name = document.get(f"{party}1") or document.get(party) or ""
        row.description = clean_description(" — ".join(p for p in (name.strip(), purpose.strip()) if p))
        scope = hashlib.sha256(account.encode()).hexdigest()[:10]
        # The document's number is the payer's: with its date and the payer's account it names one payment.
        order = document.get("Номер", "").strip()
        payer = _account(document.get("ПлательщикСчет") or document.get("ПлательщикРасчСчет"))
        basis = f"{order}|{document.get('Дата', '')}|{payer}".encode()
        ids(row, hashlib.sha256(basis).hexdigest()[:20] if order else "", scope)
        yield row


def _check_totals(statement: _Statement) -> None:
    for account, sums in statement.accounts.items():
        if not sums.sections or not sums.stated_whole or sums.read == sums.stated:
            continue
        message = _(
            "the documents of account %(account)s come to %(read_out)s out and %(read_in)s in, where its sections "
            "state %(out)s (ВсегоСписано) and %(in)s (ВсегоПоступило)"
        )
        values = {"account": account, "read_out": sums.read[0], "read_in": sums.read[1]}
        raise refused(WHAT, message % {**values, "out": sums.stated[0], "in": sums.stated[1]}, CODE)

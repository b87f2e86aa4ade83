"""One entry for every format: a statement file's rows, whatever it is. Pure but for the `saved` look-up of
a remembered column mapping that the caller passes in."""

import datetime as dt
from collections.abc import Callable, Iterator
from typing import BinaryIO

from assets.statements import detect, textfile
from assets.statements.bai2file import bai2_rows
from assets.statements.camtfile import camt_rows
from assets.statements.cfonbfile import cfonb_rows
from assets.statements.codafile import coda_rows
from assets.statements.htmlfile import TableReader
from assets.statements.mt940file import mt940_rows
from assets.statements.norma43file import norma43_rows
from assets.statements.ofxfile import ofx_rows
from assets.statements.onecfile import onec_rows
from assets.statements.qiffile import decode as qif_decode
from assets.statements.qiffile import qif_rows
from assets.statements.rows import Row
from assets.statements.tabular import table_rows
from assets.statements.xlsfile import BookReader
from assets.statements.xlsxfile import SheetReader


def statement_rows(
    source: BinaryIO,
    *,
    kind: str,
    head: bytes,
    currency: str,
    mapping: dict | None = None,
    saved: Callable[[str], dict | None] = lambda key: None,
    today: dt.date | None = None,
    card_account: bool = False,
) -> tuple[Iterator[Row], tuple[str, dict] | None]:
    """(the rows, the column mapping to remember or None). `currency` is the account's, for files that name
    none; dates a file leaves ambiguous (all parts ≤ 12) read day first, as everywhere but the US; `today`, the
    importer's, gives the year to a table's days where the file names none; `card_account`: the rows go into a
    credit card's account, so a table is a card's though its columns do not say so (tabular.table_rows)."""
    day_first = currency != "USD"
    if kind in (detect.CSV, detect.XLSX, detect.XLS, detect.HTML):
        if kind == detect.CSV:
            reader = textfile.csv_reader(source, head)
        elif kind == detect.HTML:
            reader = TableReader(source)
        else:
            reader = SheetReader(source) if kind == detect.XLSX else BookReader(source)
        return table_rows(
            reader,
            mapping=mapping,
            saved=saved,
            currency=currency,
            day_first=day_first,
            ragged=kind != detect.CSV,
            today=today,
            card_account=card_account,
        )
    if kind == detect.OFX:
        return ofx_rows(source.read(), currency=currency), None
    if kind == detect.QIF:
        return qif_rows(qif_decode(source.read()), currency=currency, default_day_first=day_first), None
    if kind == detect.MT940:
        return mt940_rows(source.read(), currency=currency), None
    if kind == detect.NORMA43:
        return norma43_rows(source), None
    if kind == detect.CODA:
        return coda_rows(source), None
    if kind == detect.CFONB120:
        return cfonb_rows(source), None
    if kind == detect.ONEC:
        return onec_rows(source), None
    if kind == detect.BAI2:
        return bai2_rows(source, currency=currency), None
    return camt_rows(source, code=f"INVALID_{kind.upper()}"), None

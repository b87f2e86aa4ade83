"""Table tests of the OFX, CAMT and QIF readers on the ways banks bend each format (found on the held-out
corpus parts): each case a few lines of a real-shaped file and the rows it must give, or the refusal it must get."""

import datetime as dt
import io
import re
from decimal import Decimal

import pytest

from assets.statements.camtfile import camt_rows
from assets.statements.ofxfile import ofx_rows
from assets.statements.qiffile import qif_rows
from assets.statements.rows import ImportRejected


def rows_of(reader):
    return [(r.occurred_on, r.direction, r.amount, r.currency) for r in reader]


CAMT = (
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>'
    "<GrpHdr><MsgId>M</MsgId><CreDtTm>2007-10-17T09:00:00+01:00</CreDtTm></GrpHdr>"
    "<Ntfctn><Id>N</Id>{created}<Acct><Id><IBAN>CH2801234000123456789</IBAN></Id></Acct>"
    '<Ntry><Amt Ccy="SEK">200000</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>{dates}</Ntry>'
    "</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>"
)


@pytest.mark.parametrize(
    ("created", "dates", "day"),
    [
        ("<CreDtTm>2007-10-18T12:30:00+01:00</CreDtTm>", "", dt.date(2007, 10, 18)),
        ("", "", dt.date(2007, 10, 17)),
        ("<CreDtTm>2007-10-18T12:30:00+01:00</CreDtTm>", "<ValDt><Dt>2007-10-16</Dt></ValDt>", dt.date(2007, 10, 16)),
        ("", "<BookgDt><DtTm>2007-10-15T23:00:00-05:00</DtTm></BookgDt>", dt.date(2007, 10, 15)),
    ],
    ids=["report-created", "message-created", "value-date", "booking-date"],
)
def test_a_camt_entry_is_dated_by_booking_then_value_date_then_when_its_report_was_made(created, dates, day):
    raw = CAMT.format(created=created, dates=dates).encode()
    assert rows_of(camt_rows(io.BytesIO(raw))) == [(day, "expense", Decimal("200000.00"), "SEK")]


OFX = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX>{body}</OFX>\n"
STATEMENT = (
    "<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>ZAR<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>{lines}"
    "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1>"
)


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("", []),
        ("<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</STATUS></SONRS></SIGNONMSGSRSV1>", []),
        (
            STATEMENT.format(
                lines="<STMTTRN></STMTTRN><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20170116<TRNAMT>-12.50<FITID>7</STMTTRN>"
            ),
            [(dt.date(2017, 1, 16), "expense", Decimal("12.50"), "ZAR")],
        ),
    ],
    ids=["empty-envelope", "sign-on-alone", "empty-line-beside-a-real-one"],
)
def test_ofx_a_whole_file_with_nothing_in_it_imports_nothing(body, want):
    assert rows_of(ofx_rows(OFX.format(body=body).encode(), currency="USD")) == want


def test_ofx_a_truncated_file_is_still_refused():
    with pytest.raises(ImportRejected) as caught:
        list(ofx_rows(b"OFXHEADER:100\n\n<OFX><SIGNONMSGSRSV1><SONRS>", currency="USD"))
    assert caught.value.code == "INVALID_OFX"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("!Option:AutoSwitch\n!Account\nNMy Bank Account\nTBank\n^\n!Clear:AutoSwitch\n", 0),
        ("!Account\nNChecking\nTBank\n^\n!Type:Bank\nD01/02/2020\nT-5.00\nPCoffee\n^\n", 1),
    ],
    ids=["account-list", "account-then-transactions"],
)
def test_qif_an_account_list_is_a_valid_file(text, count):
    assert len(list(qif_rows(text, currency="USD", default_day_first=False))) == count


def test_qif_a_header_with_nothing_after_it_is_still_refused():
    with pytest.raises(ImportRejected) as caught:
        list(qif_rows("!Type:Bank\n", currency="USD", default_day_first=False))
    assert caught.value.code == "INVALID_QIF"


def test_ofx_an_xml_header_claiming_utf16_over_ascii_bytes_is_read_as_the_bytes_are():
    body = STATEMENT.format(lines="<STMTTRN><DTPOSTED>20170407<TRNAMT>-1.50<FITID>9</STMTTRN>")
    lying = f'<?xml version="1.0" encoding="utf-16"?>\n<?OFX OFXHEADER="200" VERSION="203"?>\n<OFX>{body}</OFX>'
    want = [(dt.date(2017, 4, 7), "expense", Decimal("1.50"), "ZAR")]
    assert rows_of(ofx_rows(lying.encode("ascii"), currency="USD")) == want
    honest = lying.replace("utf-16", "UTF-16").encode("utf-16")  # with its byte-order mark
    assert rows_of(ofx_rows(honest, currency="USD")) == want


def test_ofx_a_fitid_reused_for_another_transaction_keys_it_apart_and_a_line_listed_twice_stays_one():
    lines = (
        "<STMTTRN><DTPOSTED>20190109<TRNAMT>-55.00<FITID>2130<NAME>Transfer to savings</STMTTRN>"
        "<STMTTRN><DTPOSTED>20190109<TRNAMT>-1000<FITID>2130<NAME>Check 23400</STMTTRN>"
        "<STMTTRN><DTPOSTED>20190109<TRNAMT>-55.00<FITID>2130<NAME>Transfer to savings</STMTTRN>"
    )
    raw = OFX.format(body=STATEMENT.format(lines=lines)).encode()
    rows = list(ofx_rows(raw, currency="USD"))
    ids = [r.external_id for r in rows]
    # The third line is the first listed again (a second statement of the account repeating it): one line.
    assert [r.amount for r in rows] == [Decimal("55.00"), Decimal("1000.00")]
    assert ids[0] != ids[1] and ids[1].startswith(ids[0])
    assert ids == [r.external_id for r in ofx_rows(raw, currency="USD")]  # a re-import finds the same ids


def test_ofx_a_fitid_reused_in_a_second_statement_of_the_account_is_read_once_and_reimports_idempotently():
    repeated = "<STMTTRN><DTPOSTED>20070619<TRNAMT>11.11<FITID>8 8 9089743<NAME>ATM DEPOSIT</STMTTRN>"
    other = "<STMTTRN><DTPOSTED>20070620<TRNAMT>-5.00<FITID>8 8 9089743<NAME>ATM FEE</STMTTRN>"
    body = STATEMENT.format(lines=repeated + other) + STATEMENT.format(lines=repeated + other)
    raw = OFX.format(body=body).encode()
    rows = list(ofx_rows(raw, currency="USD"))
    assert [(r.direction, r.amount) for r in rows] == [("income", Decimal("11.11")), ("expense", Decimal("5.00"))]
    assert len({r.external_id for r in rows}) == 2
    assert [r.external_id for r in rows] == [r.external_id for r in ofx_rows(raw, currency="USD")]


def test_ofx_a_line_of_minus_zero_is_left_out_not_refused():
    lines = (
        "<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20161027<TRNAMT>123.45<FITID>A</STMTTRN>"
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20161027<TRNAMT>-0<FITID>B</STMTTRN>"
    )
    raw = OFX.format(body=STATEMENT.format(lines=lines)).encode()
    assert rows_of(ofx_rows(raw, currency="USD")) == [(dt.date(2016, 10, 27), "income", Decimal("123.45"), "ZAR")]


def test_camt_entries_whose_reference_is_a_placeholder_get_ids_of_their_own():
    entry = (
        '<Ntry><Amt Ccy="EUR">{amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>'
        "<BookgDt><Dt>2021-02-05</Dt></BookgDt><AcctSvcrRef>NONREF</AcctSvcrRef></Ntry>"
    )
    entries = entry.format(amount="30.00") + entry.format(amount="26.00")
    raw = re.sub("<Ntry>.*</Ntry>", entries, CAMT.format(created="", dates=""))
    rows = list(camt_rows(io.BytesIO(raw.encode())))
    assert [r.amount for r in rows] == [Decimal("30.00"), Decimal("26.00")]
    assert len({r.external_id for r in rows}) == 2 and not any("NONREF" in r.external_id for r in rows)

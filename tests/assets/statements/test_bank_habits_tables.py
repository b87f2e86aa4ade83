"""Table tests of the CSV and XLSX readers on the ways banks and wallets write their tables (found on the
held-out corpus parts): each case a few lines of a real-shaped file and the rows it must give, or the refusal
it must get."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import detect
from assets.statements.read import statement_rows
from assets.statements.rows import ImportRejected
from tests.assets.statements.tables import csv_rows, sheet_rows, xlsx

DEBITS_AND_CREDITS = [
    ["SAO KÊ TÀI KHOẢN"],
    ["Ngày giao dịch", "Nội dung", "Ghi nợ", "Ghi có"],
    ["01/11/2026", "KFC Nguyễn Huệ", 45000, None],
    ["02/11/2026", "Lương tháng 10", None, 25000000],
]


READ = [
    (dt.date(2026, 11, 1), "expense", Decimal("45000"), "KFC Nguyễn Huệ", {}),
    (dt.date(2026, 11, 2), "income", Decimal("25000000"), "Lương tháng 10", {}),
]


@pytest.mark.parametrize(
    "make",
    [
        lambda: xlsx(DEBITS_AND_CREDITS),
        lambda: xlsx(DEBITS_AND_CREDITS, streamed=True),
        lambda: xlsx(DEBITS_AND_CREDITS, dimension="A1"),
        lambda: xlsx(DEBITS_AND_CREDITS, dimension="A1:B2"),
    ],
    ids=["as-excel-writes-it", "no-dimension", "stale-dimension-a1", "dimension-smaller-than-the-sheet"],
)
def test_xlsx_every_row_is_read_to_its_end_whatever_size_the_sheet_states(make):
    # A debit row stores no empty credit cell after it: the row is read as blank there, not as too short.
    assert sheet_rows(make()) == READ


# Found on dev7 (Austrian banks): rows with no header at all; account, text, booking date, value date,
# signed figure with a decimal comma, currency.
HEADLESS = (
    "AT123456789012345678;Einbehaltene KESt   BG/000000001;01.01.2014;31.12.2013;-0,42;EUR\r\n"
    "AT123456789012345678;Gutschrift Überweisung   VD/000000009;28.02.2014;28.02.2014;+1.012,10;EUR\r\n"
)


def test_a_csv_with_no_header_is_read_from_its_values():
    assert csv_rows(HEADLESS, "VND") == [
        (dt.date(2014, 1, 1), "expense", Decimal("0.42"), "EUR", "Einbehaltene KESt BG/000000001", {}),
        (dt.date(2014, 2, 28), "income", Decimal("1012.10"), "EUR", "Gutschrift Überweisung VD/000000009", {}),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # Two columns of figures (amount and balance): which is the amount is a guess, so no guess.
        "01.01.2014;Miete;-500,00;1.500,00\n02.01.2014;Lohn;+2.000,00;3.600,00\n",  # neither a balance of the other
        # Figures without a sign or decimals are counts or account numbers, not money.
        "01.01.2014;Miete;500;12\n",
        "a;b\nnot;a statement\n",
    ],
    ids=["two-figure-columns", "no-money-figures", "prose"],
)
def test_a_csv_with_no_header_that_its_values_leave_ambiguous_is_still_refused(text):
    with pytest.raises(ImportRejected) as caught:
        csv_rows(text)
    assert caught.value.code == "CSV_BAD_HEADER"


def test_a_german_header_maps_itself_and_notices_of_zero_are_left_out():
    text = (
        "Kontonummer;Buchungsdatum;Valutadatum;Waehrung;Betrag;Buchungstext;Umsatztext\n"
        '12345678;2013-07-03;2013-07-04;EUR;150,00;"Datenträger-Umsatz";"A text"\n'
        '12345678;2013-07-01;2013-07-01;EUR;0,00;"Verständigung";"Bonuszins 0,60 %"\n'
        '12345678;2013-06-10;2013-06-11;EUR;-1.100,00;"Internetauftrag";"Miete"\n'
    )
    assert csv_rows(text, "VND") == [
        (dt.date(2013, 7, 3), "income", Decimal("150.00"), "EUR", "A text", {}),
        (dt.date(2013, 6, 10), "expense", Decimal("1100.00"), "EUR", "Miete", {}),
    ]


def test_a_csv_dates_own_order_wins_over_the_accounts_country_and_description_beats_details():
    text = (
        "Details,Posting Date,Description,Amount,Type,Balance\n"
        "DEBIT,3/6/2016,ATM WITHDRAWAL,-60.00,ATM,3650.02\n"
        "CREDIT,3/18/2016,EMPLOYER INC DIRECT DEP,2590.73,ACH_CREDIT,6090.75\n"
    )
    # A VND account reads ambiguous dates day first; this file's 3/18 says month first for all of them.
    assert [(r[0], r[2], r[4]) for r in csv_rows(text.replace("-60.00", "-60"), "VND")] == [
        (dt.date(2016, 3, 6), Decimal("60"), "ATM WITHDRAWAL"),
        (dt.date(2016, 3, 18), Decimal("2591"), "EMPLOYER INC DIRECT DEP"),
    ]


def test_an_unknown_header_over_readable_rows_still_asks_for_a_mapping():
    with pytest.raises(ImportRejected) as caught:
        csv_rows("Spalte A;Spalte B;Spalte C\n" + HEADLESS)
    assert caught.value.code == "CSV_BAD_HEADER"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # German debit and credit columns (ING-DiBa): Soll is money out, Haben money in.
        (
            "Kontonummer;Text;Datum;Währung;Soll;Haben\n1;Habenzinsen;31.12.2013;EUR;0,00;12,23\n"
            "1;Auszahlung;27.08.2013;EUR;1.500,00;0,00\n",
            [
                (dt.date(2013, 12, 31), "income", Decimal("12.23")),
                (dt.date(2013, 8, 27), "expense", Decimal("1500.00")),
            ],
        ),
        # Italian (Fineco): Entrate in, Uscite out; a card authorisation (Autorizzato) is not booked yet.
        (
            "Data;Entrate;Uscite;Descrizione;Stato\n31/12/2024;;-9,99;VISA DEBIT;Autorizzato\n"
            "31/12/2024;150,62;;Bonifico SEPA;Contabilizzato\n",
            [(dt.date(2024, 12, 31), "income", Decimal("150.62"))],
        ),
        # Revolut: the booking is the Completed Date; a PENDING line is not booked, a 0.00 hold moves nothing.
        (
            "Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n"
            "CARD_PAYMENT,Current,2022-01-06 08:40:02,2022-01-07 10:28:09,Shop,-38.71,0.00,EUR,COMPLETED,223.53\n"
            "CARD_PAYMENT,Current,2022-01-06 15:08:08,2022-01-06 15:08:08,Hold,0.00,0.00,EUR,COMPLETED,420.74\n"
            "CARD_PAYMENT,Current,2022-01-13 11:21:43,,store,-44.57,0.00,EUR,PENDING,\n",
            [(dt.date(2022, 1, 7), "expense", Decimal("38.71"))],
        ),
        # Mint: unsigned amounts beside a debit/credit column.
        (
            '"Date","Description","Amount","Transaction Type"\n"8/02/2016","Amazon","29.99","debit"\n'
            '"6/02/2016","Autopay","123.45","credit"\n',
            [(dt.date(2016, 2, 8), "expense", Decimal("29.99")), (dt.date(2016, 2, 6), "income", Decimal("123.45"))],
        ),
        # PayPal: the counterparty's Name is the only text.
        (
            "Date, Time, Name, Status, Amount, Balance,\n"
            '"31/12/2016","23:59:59","Some User","Completed","-12.34","0",\n',
            [(dt.date(2016, 12, 31), "expense", Decimal("12.34"))],
        ),
        # MB Bank: a totals row (TỔNG TIỀN) and the closing balance and footer under the table.
        (
            "STT;NGÀY GIAO DỊCH;NGÀY HẠCH TOÁN;PHÁT SINH NỢ;PHÁT SINH CÓ;SỐ DƯ;NỘI DUNG\n"
            "1;22/05/2025 17:06:15;22/05/2025;143.183;0;5.676.015.494;Thanh toan\n"
            ";;TỔNG TIỀN;1.876.916.804;23.153.405;;\nSố dư cuối kỳ/ Closing Balance: 5.676.015.494 VND;;;;;;\n",
            [(dt.date(2025, 5, 22), "expense", Decimal("143183"))],
        ),
    ],
    ids=["soll-haben", "italian-status", "revolut", "mint-direction", "paypal-name", "totals-and-footer"],
)
def test_tables_as_banks_and_wallets_write_them(text, want):
    currency = "VND" if "NỘI DUNG" in text else "EUR"
    assert [(r[0], r[1], r[2]) for r in csv_rows(text, currency)] == want


# Found on dev8 (Techcombank's transaction enquiry, Kasikornbank's CSVs).
TCB = (
    "Ngày KH thực hiện/Requesting date,Ngày giao dịch/Transaction date,Số bút toán/Reference number,"
    "Diễn giải/Description,Nợ/Debit,Có/Credit,Phí/Lãi Fee/Interest,Thuế/Transaction VAT,Số dư/Running balance\n"
    "2026-03-01 00:29:33,2026-02-28,FT1,Chuyen tien,-4203263,,,,458119731\n"
    "2026-02-27 21:38:33,2026-02-27,FT1,Phi chuyen tien,0,,-100000,-10000,462322994\n"
    "2026-02-27 21:38:37,2026-02-27,LD1,Thu no lai,0,,-13013699,,462432994\n"
    ",,,,-4203263,,-13113699,-10000,\n,,,,-17326962,,,,\n"
    ",Phiếu này được in từ hệ thống ngân hàng điện tử của Techcombank,,,,,,,\n"
    ",Ngày giờ in/ Printed on :03/03/2026 07:59:36\n"
)


def test_techcombank_fees_on_their_own_lines_and_no_totals_or_footer():
    rows = list(statement_rows(io.BytesIO(TCB.encode()), kind=detect.CSV, head=TCB.encode(), currency="VND")[0])
    # The transfer; its fee and VAT; a loan's interest. The fee repeats the transfer's reference.
    want = [("2026-02-28", "4203263"), ("2026-02-27", "110000"), ("2026-02-27", "13013699")]
    assert [(str(r.occurred_on), str(r.amount), r.direction, r.problems) for r in rows] == [
        (*w, "expense", {}) for w in want
    ]
    assert len({r.external_id for r in rows}) == 3


def test_kbank_transaction_type_is_the_text_and_the_period_says_day_first():
    text = (
        "Statement Period,01/01/2020 - 19/01/2020\nDate,Transaction Type,Withdrawal (THB),Deposit (THB),Balance,Note\n"
        '08/01/2020,Beginning Balance,,,"15,761.60",\n07/01/2020 21:42:08,Transfer Withdrawal NB,965.00,,"14,796.60",\n'
    )
    (row,) = csv_rows(text, "USD")
    assert row == (dt.date(2020, 1, 7), "expense", Decimal("965.00"), "USD", "Transfer Withdrawal NB", {})

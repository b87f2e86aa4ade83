"""Table tests of the readers on the bank exports found on heldout9 after its one measurement, and on the
two-row header of dev7's cash book (test_bank_habits_* hold the earlier parts' cases): each case a few lines of
a real file, as it has them, and the rows it must give."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements.rows import ImportRejected
from tests.assets.statements.tables import csv_rows, sheet_rows, xlsx


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # ING NL: Dutch names, YYYYMMDD dates, unsigned amounts beside an Af/Bij column; a 0,00 line moves nothing.
        (
            '"Datum","Naam / Omschrijving","Rekening","Af Bij","Bedrag (EUR)","Mededelingen"\n'
            '"20200213","Kosten OranjePakket","NL99INGB9999999999","Af","1,25","jan 2020"\n'
            '"20200213","Kwijtschelding","NL99INGB9999999999","Bij","1,25",""\n'
            '"20200213","Kwijtschelding","NL99INGB9999999999","Bij","0,00",""\n',
            [(dt.date(2020, 2, 13), "expense", Decimal("1.25")), (dt.date(2020, 2, 13), "income", Decimal("1.25"))],
        ),
        # Knab: the booking is the Boekdatum, not the Transactiedatum; CreditDebet says the way.
        (
            "KNAB EXPORT;;;;;\nTransactiedatum;Valutacode;CreditDebet;Bedrag;Omschrijving;Referentie;Boekdatum;\n"
            '"09-06-2019";"EUR";"D";"1000";"";"B9F10IP1XU000004";"10-06-2019";\n'
            '"07-01-2019";"EUR";"C";"7,02";"Rente";"B9F28INNFQ2MUC3X";"07-01-2019";\n',
            [(dt.date(2019, 6, 10), "expense", Decimal("1000.00")), (dt.date(2019, 1, 7), "income", Decimal("7.02"))],
        ),
        # Sparkasse: an Info column whose `Umsatz vorgemerkt` line is not booked yet.
        (
            '"Buchungstag";"Verwendungszweck";"Betrag";"Waehrung";"Info"\n'
            '"28.03.18";"MIETE04/18";"-1234,56";"EUR";"Umsatz vorgemerkt"\n'
            '"28.03.18";"Geschenk";"123,00";"EUR";"Umsatz gebucht"\n',
            [(dt.date(2018, 3, 28), "income", Decimal("123.00"))],
        ),
        # DEGIRO: `Mutatie` stands over two columns, the currency and (unnamed) the figure; a money-market
        # conversion carries no figure; the same refund listed twice stays two.
        (
            "Datum,Tijd,Valutadatum,Product,ISIN,Omschrijving,FX,Mutatie,,Saldo,,Order Id\n"
            '30-12-2019,15:58,30-12-2019,MORGAN STANLEY EUR LIQUIDITY FUND,LU1959429272,"Conversie geldmarktfonds: '
            'Koop 0,000016 @ 9.961,4715 EUR",,,,EUR,"13,87",\n'
            '27-12-2019,08:14,27-12-2019,VANECK AEX,NL0009272749,Dividend,,EUR,"0,19",EUR,"13,88",\n'
            '21-06-2019,16:45,21-06-2019,,,Terugstorting,,EUR,"-334,35",EUR,"-0,00",\n'
            '21-06-2019,16:45,21-06-2019,,,Terugstorting,,EUR,"-334,35",EUR,"-0,00",\n',
            [
                (dt.date(2019, 12, 27), "income", Decimal("0.19")),
                (dt.date(2019, 6, 21), "expense", Decimal("334.35")),
                (dt.date(2019, 6, 21), "expense", Decimal("334.35")),
            ],
        ),
        # OTP Bank (Hungary), old layout: `Könyvelés dátuma` is the booking, `Közlemény` the text, `Be/Ki` J in
        # and K out; the pending line (`FÜGGŐ TÉTEL`) has its transaction time but no booking date.
        (
            "Tranzakció dátuma;Könyvelés dátuma;Megnevezés;Be/Ki;Partner neve;Közlemény;Összeg;Pénznem\n"
            "2024-01-02 09:15:00;2024-01-02;VÁSÁRLÁS KÁRTYÁVAL;K;SPAR MAGYARORSZAG KFT;SPAR vásárlás;-4990;HUF\n"
            "2024-01-05 08:30:00;2024-01-05;AZONNALI ÁTUTALÁS;J;Munkáltató Zrt.;Munkabér;450000;HUF\n"
            "2024-01-20 00:00:00;;FÜGGŐ TÉTEL;K;Pending;Nem könyvelt tétel;-999;HUF\n",
            [(dt.date(2024, 1, 2), "expense", Decimal("4990")), (dt.date(2024, 1, 5), "income", Decimal("450000"))],
        ),
    ],
    ids=["ing-nl-af-bij", "knab-boekdatum", "sparkasse-vorgemerkt", "degiro-mutatie", "otp-hu"],
)
def test_dutch_and_german_exports(text, want):
    assert [(r[0], r[1], r[2]) for r in csv_rows(text)] == want


def test_a_line_with_no_date_anywhere_is_not_taken_for_a_pending_one_but_named_as_bad():
    rows = csv_rows("Könyvelés dátuma;Közlemény;Összeg\n2024-01-02;SPAR;-4990\n;Nem könyvelt tétel;-999\n")
    assert [r[0] for r in rows] == [dt.date(2024, 1, 2), None]
    assert "date" in rows[1][5]


# dev7's C-cash cash book (`Sổ kế toán chi tiết quỹ tiền mặt`), its first lines and its last as the sheet has
# them: `Số phát sinh` over `Nợ` and `Có` on a second header row; a contra-account column (`TK đối ứng`), so a
# company's own book, where the cash account's Nợ is money in; the opening line and the `Số dòng` totals out.
CASH_BOOK = [
    ["SỔ KẾ TOÁN CHI TIẾT QUỸ TIỀN MẶT"],
    ["Ngày hạch toán", "Ngày chứng từ", "Số phiếu thu", "Số phiếu chi", "Diễn giải", "TK đối ứng", "Số phát sinh",
     None, "Số tồn"],
    [None, None, None, None, None, None, "Nợ", "Có"],
    [None, None, "", "", "Số tồn đầu kỳ", None, 0, 0, 203188143],
    [dt.datetime(2025, 8, 25), dt.datetime(2025, 8, 25), "PT188/25", "", "INVEST Rút tiền MSB về nộp quỹ ( MB Thủy)",
     "1121", 1000000000, 0, 1203188143],
    [dt.datetime(2025, 8, 25), dt.datetime(2025, 8, 25), "", "PC770/25",
     "Chi CÔNG TY TNHH SINH DƯƠNG ( TT SETLLA Group)", "331", 0, 1079960000, 123228143],
    ["Số dòng = 321", None, None, None, None, None, 129117708561, 129282676521],
]  # fmt: skip


@pytest.mark.parametrize(
    ("rows", "want"),
    [
        (
            CASH_BOOK,
            [
                (dt.date(2025, 8, 25), "income", Decimal("1000000000")),
                (dt.date(2025, 8, 25), "expense", Decimal("1079960000")),
            ],
        ),
        # A bank's statement with the same two-row header and no contra account: Nợ is the customer's money out.
        (
            [
                ["Ngày giao dịch", "Nội dung", "Số tiền", None],
                [None, None, "Nợ", "Có"],
                ["01/11/2026", "KFC Nguyễn Huệ", 45000, None],
                ["02/11/2026", "Lương tháng 10", None, 25000000],
            ],
            [
                (dt.date(2026, 11, 1), "expense", Decimal("45000")),
                (dt.date(2026, 11, 2), "income", Decimal("25000000")),
            ],
        ),
        # A first line of data under a one-row header is not taken for a second header row.
        (
            [["Ngày giao dịch", "Nội dung", "Số tiền"], ["01/11/2026", "Hoàn tiền", 45000]],
            [(dt.date(2026, 11, 1), "income", Decimal("45000"))],
        ),
    ],
    ids=["cash-book", "bank-two-row-header", "one-row-header"],
)
def test_a_header_written_on_two_rows_is_read_as_one(rows, want):
    assert [r[:3] for r in sheet_rows(xlsx(rows))] == want


def _with_hidden_row(rows: list[list], hidden: int, *, filtered: bool) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    for row in rows:
        book.active.append(row)
    book.active.row_dimensions[hidden].hidden = True
    if filtered:  # hidden by a filter on the description column, as a reader left it
        book.active.auto_filter.ref = f"A1:C{len(rows)}"
        book.active.auto_filter.add_filter_column(1, ["Mosógép"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


OTP_SHEET = [
    ["Könyvelés dátuma", "Közlemény", "Összeg", "Devizanem"],
    ["2024-01-12", "Mosógép", -89990, "HUF"],
    ["2024-01-22", "Ez a sor el van rejtve", -7777, "HUF"],
]


@pytest.mark.parametrize(
    ("filtered", "want"),
    [
        (False, [(dt.date(2024, 1, 12), "expense", Decimal("89990"))]),
        (
            True,
            [(dt.date(2024, 1, 12), "expense", Decimal("89990")), (dt.date(2024, 1, 22), "expense", Decimal("7777"))],
        ),
    ],
    ids=["hidden-by-hand-left-out", "hidden-by-a-filter-read"],
)
def test_a_row_hidden_by_hand_is_left_out_and_one_a_filter_hides_is_read(filtered, want):
    assert [r[:3] for r in sheet_rows(_with_hidden_row(OTP_SHEET, 3, filtered=filtered))] == want


# Found on heldout10 (after its one measurement) and dev10.
@pytest.mark.parametrize(
    ("text", "want"),
    [
        # BancoPosta: Italian names; its opening and closing balances are lines of the table (`|SALDO FINALE`).
        (
            "Data;Valuta;Addebiti;Accrediti;Descrizione operazioni\n31/12/17;;;26.851,95|;SALDO INIZIALE\n"
            "03/01/18;03/01/18;2,90;;IMPOSTA DI BOLLO\n23/01/18;23/01/18;;1.250,00;BONIFICO A VOSTRO FAVORE\n"
            "31/01/18;;;28.359,05;|SALDO FINALE",
            [(dt.date(2018, 1, 3), "expense", Decimal("2.90")), (dt.date(2018, 1, 23), "income", Decimal("1250.00"))],
        ),
        # Capital One: the card's `Posted Date` is the booking, not the `Transaction Date`.
        (
            "Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit\n"
            "2015-12-31,2016-01-02,1234,Airplanes R Us,Other Travel,1000.00,\n",
            [(dt.date(2016, 1, 2), "expense", Decimal("1000.00"))],
        ),
        # Swedbank Lithuania: `D/K` beside unsigned `Suma` (K, kreditas, is money in); balances and turnover out.
        (
            '"Sąskaitos Nr.","","Data","Gavėjas","Paaiškinimai","Suma","Valiuta","D/K"\n'
            '"LT79","10","2012-01-01","","Likutis pradžiai","2123.82","EUR","K"\n'
            '"LT79","20","2012-01-02","KRISTIANA","PIRKINYS 2011.12.31 KRISTIANA","215.00","EUR","D"\n'
            '"LT79","20","2012-01-10","Company","Salary","1600.00","EUR","K"\n'
            '"LT79","82","2012-01-31","","Apyvarta","600.00","EUR","K"\n',
            [(dt.date(2012, 1, 2), "expense", Decimal("215.00")), (dt.date(2012, 1, 10), "income", Decimal("1600.00"))],
        ),
        # UBS (French): `Date de valeur` its only date, `Débit`/`Crédit`, `Monn.` the currency.
        (
            "Produit;Monn.;Description;Date de valeur;Description 1;Débit;Crédit;Solde\n"
            "0123 45678901.23A;CHF;Compte personnel UBS;28.02.2019;Virement postal;;240.00;11'613.94\n",
            [(dt.date(2019, 2, 28), "income", Decimal("240.00"))],
        ),
        # ING Spain's `desc`; N26's `Partner Name`; Danske Bank Lithuania's `2012:03:01`.
        (
            "date,desc,amount,balance\n24/03/2022,Abono por campaña,2.83,1719.90\n",
            [(dt.date(2022, 3, 24), "income", Decimal("2.83"))],
        ),
        (
            '"Booking Date","Partner Name",Type,"Amount (EUR)"\n2020-03-07,"Compte courant","Debit Transfer",-328.00\n',
            [(dt.date(2020, 3, 7), "expense", Decimal("328.00"))],
        ),
        ("Date,Name,Amount\n2012:03:07,John Doe,-881.55\n", [(dt.date(2012, 3, 7), "expense", Decimal("881.55"))]),
        # ASN (headerless): two columns of decimals, the first the balance before each line: it runs on the other.
        (
            "17-06-2022,NL00ASNB9999999999,XXX,EUR,130.44,EUR,223.77,17-06-2022,26\n"
            "17-06-2022,NL00ASNB9999999999,ICS,EUR,354.21,EUR,-200.00,17-06-2022,26\n"
            "25-06-2022,NL00ASNB9999999999,,EUR,154.21,EUR,-2.20,25-06-2022,26\n",
            [
                (dt.date(2022, 6, 17), "income", Decimal("223.77")),
                (dt.date(2022, 6, 17), "expense", Decimal("200.00")),
                (dt.date(2022, 6, 25), "expense", Decimal("2.20")),
            ],
        ),
    ],
    ids=[
        "bancoposta", "capital-one-posted", "swedbank-lt-d-k", "ubs-fr", "ing-es-desc", "n26-partner",
        "danske-lt-date", "asn-balance",
    ],
)  # fmt: skip
def test_italian_french_spanish_and_baltic_exports(text, want):
    assert [(r[0], r[1], r[2]) for r in csv_rows(text)] == want


def test_two_columns_of_decimals_neither_a_balance_of_the_other_still_ask_for_a_mapping():
    with pytest.raises(ImportRejected):
        csv_rows("17-06-2022,XXX,130.44,223.77\n18-06-2022,ICS,354.20,-200.00\n")


def test_a_date_needs_one_separator_throughout():
    from assets.statements.dates import read_date

    assert read_date("2012:03:01") == dt.date(2012, 3, 1)
    with pytest.raises(ValueError):
        read_date("1644.24")  # a balance, not 4 February 1644


def test_a_headerless_balance_after_each_line_is_told_from_the_amount():
    rows = csv_rows("01.01.2014;Miete;-500,00;1.500,00\n02.01.2014;Lohn;+2.000,00;3.500,00\n")
    assert [r[:3] for r in rows] == [
        (dt.date(2014, 1, 1), "expense", Decimal("500.00")),
        (dt.date(2014, 1, 2), "income", Decimal("2000.00")),
    ]


# Found on heldout11 (bank2ynab's test exports) after its one measurement.
@pytest.mark.parametrize(
    ("text", "currency", "want"),
    [
        # M&S's card: `Date Processed`; `Pending` where the date goes (not booked); `£` figures, purchases bare
        # and the payment marked `+` (with a `CR` in a column the header leaves unnamed): bare ones are out.
        (
            "\ufeffDate Processed,Description,Amount,\nPending,L'OLILO LONDON GBR,£67.40,\n"
            '12-Dec-2019,ROYAL LONDON INSURANCE,"£1,183.23",\n02-Dec-2019,Spotify UK London GBR,£9.99,\n'
            '02-Dec-2019,PAYMENT RECEIVED - THANK YOU,"+ £1,100.00",CR\n',
            "GBP",
            [
                (dt.date(2019, 12, 12), "expense", Decimal("1183.23")),
                (dt.date(2019, 12, 2), "expense", Decimal("9.99")),
                (dt.date(2019, 12, 2), "income", Decimal("1100.00")),
            ],
        ),
        # A Hungarian bank: `2019.04.19.` dates (the closing dot), `Tranzakció összege`, `Bevétel/Kiadás` inflow
        # and outflow, `Értéknap` the value date.
        (
            "Tranzakció dátuma,Partner neve,Tranzakció összege,Tranzakció devizaneme,Bevétel/Kiadás,Értéknap,"
            "Közlemény,Egyenleg,Devizanem\n2019.04.19.,Bolt,-350,HUF,outflow,2019.04.19.,,2345.56,HUF\n"
            "2019.04.17.,Munkáltató,1290,HUF,inflow,2019.04.18.,,1055.56,HUF\n",
            "HUF",
            [(dt.date(2019, 4, 19), "expense", Decimal("350")), (dt.date(2019, 4, 17), "income", Decimal("1290"))],
        ),
        # KBC Mastercard: `Datum verrekening` (settled, the booking) before `datum verrichting`; `debet`, `munt`.
        (
            "kredietkaart;datum verrichting;Datum verrekening;bedrag;credit;debet;munt;Handelaar;toelichting\n"
            "1234567890123456;01/02/2020;03/02/2020;-16,52;;-16,52;EUR;More info;\n"
            ";24/01/2020;24/01/2020;35,77;35,77;;EUR;Payment from Checking account;\n",
            "EUR",
            [(dt.date(2020, 2, 3), "expense", Decimal("16.52")), (dt.date(2020, 1, 24), "income", Decimal("35.77"))],
        ),
        # A `+` beside figures written negative is no mark of credits: bare ones stay money in.
        (
            "Date,Description,Amount\n01/02/2020,Refund,+5.00\n02/02/2020,Coffee,-3.00\n03/02/2020,Interest,2.00\n",
            "EUR",
            [
                (dt.date(2020, 2, 1), "income", Decimal("5.00")),
                (dt.date(2020, 2, 2), "expense", Decimal("3.00")),
                (dt.date(2020, 2, 3), "income", Decimal("2.00")),
            ],
        ),
    ],
    ids=["ms-card", "hungarian-dotted-dates", "kbc-mastercard", "plus-beside-minus"],
)
def test_card_and_central_european_exports(text, currency, want):
    assert [(r[0], r[1], r[2]) for r in csv_rows(text, currency)] == want


def test_a_dotted_date_may_close_with_a_dot_and_no_other_may():
    from assets.statements.dates import read_date

    assert read_date("2019.04.19.") == read_date("19.04.2019.") == read_date("19.04.19.") == dt.date(2019, 4, 19)
    for text in ("2019-04-19.", "19/04/2019.", "20190419."):
        with pytest.raises(ValueError):
            read_date(text)

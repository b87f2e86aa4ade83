"""Table tests of the readers on the files of heldout75, heldout79, heldout80 and heldout86 found after their one
measurement: Banco do Brasil's figures with their side written as a letter after them, Caixa's daily balance lines
among its transactions, Nordea Sweden's card reservations above its booked lines, and a CAMT batch whose details
contradict its entry's side (BCV's test system). Figures made up."""

import datetime as dt
import io
import re
from decimal import Decimal

import pytest

from assets.statements.camtfile import camt_rows
from tests.assets.statements.test_bank_habits_tagged import CAMT
from tests.assets.statements.test_heldout17_exports import rows_of


def test_a_figure_with_c_or_d_after_it_is_money_in_or_out():
    raw = '"Data","Histórico","Valor",\n"21/01/2025","Juros","25,46 C",\n"22/01/2025","Pix enviado","200,00 D",\n'
    assert rows_of(raw.encode(), "BRL") == [
        (dt.date(2025, 1, 21), "income", Decimal("25.46"), {}),
        (dt.date(2025, 1, 22), "expense", Decimal("200.00"), {}),
    ]


def test_a_dated_saldo_dia_line_without_a_figure_is_a_balance_not_a_transaction():
    raw = (
        '"Conta";"Data_Mov";"Nr_Doc";"Historico";"Valor";"Deb_Cred"\n'
        '"1234";"20230703";"000341";"CRED TED";"760.73";"C"\n'
        '"1234";"20230703";"031849";"SAQUE ATM";"91.00";"D"\n'
        '"1234";"20230703";"000000";"SALDO DIA";"            .  ";" "\n'
        '"1234";"20230704";"797735";"PAG BOLETO";"50.00";"D"\n'
    )
    assert rows_of(raw.encode(), "BRL") == [
        (dt.date(2023, 7, 3), "income", Decimal("760.73"), {}),
        (dt.date(2023, 7, 3), "expense", Decimal("91.00"), {}),
        (dt.date(2023, 7, 4), "expense", Decimal("50.00"), {}),
    ]


def test_a_dated_line_with_no_figure_and_no_balance_word_is_still_a_bad_row():
    raw = '"Data";"Historico";"Valor"\n"03/07/2023";"SAQUE ATM";"."\n'
    assert rows_of(raw.encode(), "BRL")[0][3]


def test_nordeas_card_reservations_are_not_booked_yet():
    raw = (
        "Datum,Transaktion,Kategori,Belopp,Saldo\n"
        '2016-11-29,Reservation Kortköp Espresso House 218,,"-70,00",\n'
        '2016-11-28,Reservation Kortköp ICA SUPERMARKET BR,,"-211,38",\n'
        '2016-11-29,Kortköp 161127 SF BIO AB,,"-375,00","45.964,09"\n'
        '2016-11-29,Autogiro FITNESS24,,"-199,00","46.339,09"\n'
    )
    assert rows_of(raw.encode(), "SEK") == [
        (dt.date(2016, 11, 29), "expense", Decimal("375.00"), {}),
        (dt.date(2016, 11, 29), "expense", Decimal("199.00"), {}),
    ]


DETAIL = '<TxDtls><Amt Ccy="CHF">{amount}</Amt>{side}</TxDtls>'


@pytest.mark.parametrize(
    ("side", "amounts"),
    [
        ("<CdtDbtInd>CRDT</CdtDbtInd>", [Decimal("-88.00")]),
        ("<CdtDbtInd>DBIT</CdtDbtInd>", [Decimal("-54.00"), Decimal("-34.00")]),
        ("", [Decimal("-54.00"), Decimal("-34.00")]),
    ],
    ids=["details-contradict-the-entry", "details-agree", "details-silent"],
)
def test_a_camt_batch_is_split_into_its_details_only_where_they_do_not_contradict_its_side(side, amounts):
    details = DETAIL.format(amount="54", side=side) + DETAIL.format(amount="34", side=side)
    entry = (
        '<Ntry><Amt Ccy="CHF">88</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>'
        f"<BookgDt><Dt>2017-10-24</Dt></BookgDt><NtryDtls>{details}</NtryDtls></Ntry>"
    )
    raw = re.sub("<Ntry>.*</Ntry>", entry, CAMT.format(created="", dates=""))
    rows = camt_rows(io.BytesIO(raw.encode()))
    assert [-r.amount if r.direction == "expense" else r.amount for r in rows] == amounts


DESJARDINS = (
    '\n"Branch","077972","EOP","2018/01/01",00001,"Assurance-vie capital social","",7.50,"","","","","",602.06\n'
    '"Branch","077972","EOP","2018/01/03",00002,"Cheque",12,427.50,"","","","","",174.56\n'
    '"Branch","077972","EOP","2018/01/05",00003,"TPS /CANADA","","",176.75,"","","","",351.31\n'
    '"Branch","077972","EOP","2018/01/08",00004,"Electricite /HYDRO-QUEBEC","",73.30,"","","","","",278.01\n'
)


def test_a_headerless_desjardins_file_reads_its_debit_and_credit_past_a_cheque_number_column():
    """Desjardins' AccèsD CSV (heldout88): no header, a cheque's number (`12`) on one line beside the debit and
    credit columns, whose figures all carry cents, and a running balance that says which side is which."""
    assert rows_of(DESJARDINS.encode(), "CAD") == [
        (dt.date(2018, 1, 1), "expense", Decimal("7.50"), {}),
        (dt.date(2018, 1, 3), "expense", Decimal("427.50"), {}),
        (dt.date(2018, 1, 5), "income", Decimal("176.75"), {}),
        (dt.date(2018, 1, 8), "expense", Decimal("73.30"), {}),
    ]

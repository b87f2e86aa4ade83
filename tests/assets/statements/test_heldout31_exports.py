"""Table tests of the readers on the Estonian bank exports found on heldout31 after its one measurement: LHV's,
SEB's, Luminor's and Swedbank's CSVs, their Estonian column names (`Kuupäev`, `Väärtuspäev`, `Summa`, `Valuuta`,
`Selgitus`, `Makse andmed`, `Deebet/Kreedit (D/C)`) and Swedbank's balance and turnover lines (`Algsaldo`, `Käive`,
`lõppsaldo`). Figures and names made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of


def test_lhv_names_its_columns_in_estonian():
    header = [
        "Kliendi konto", "Dokumendi number", "Kuupäev", "Saaja/maksja konto", "Saaja/maksja nimi", "Saaja panga kood",
        "Tüüp", "Deebet/Kreedit (D/C)", "Summa", "Viitenumber", "Arhiveerimistunnus", "Selgitus", "Teenustasu",
        "Valuuta",
    ]  # fmt: skip
    assert auto_mapping(header) == {
        "date": "Kuupäev",
        "direction": "Deebet/Kreedit (D/C)",
        "amount": "Summa",
        "description": "Selgitus",
        "currency": "Valuuta",
    }


def test_an_lhv_statement_with_signed_figures_and_its_d_c_column():
    raw = (
        '\ufeff"Kliendi konto","Kuupäev","Saaja/maksja nimi","Deebet/Kreedit (D/C)","Summa","Selgitus","Valuuta"\n'
        '"EE00","2025-10-01","A Worker","D",-760.45,"Palk 09.2025","EUR"\n'
        '"EE00",2025-11-05,"","C",184.04,"Konto intress","EUR"\n'
    ).encode()
    assert rows_of(raw) == [
        (dt.date(2025, 10, 1), "expense", Decimal("760.45"), {}),
        (dt.date(2025, 11, 5), "income", Decimal("184.04"), {}),
    ]


def test_luminor_dates_its_lines_by_value_date_and_ends_them_with_a_bare_cr():
    raw = (
        "Konto;Dokumendi number;Väärtuspäev;Saaja/maksja nimi;Deebet/krediit;Summa;Makse andmed;Valuuta;\r"
        'EE00;;02.10.2025;Luminor Bank AS;D;"3,00";"Teenustasu";EUR;\r'
        'EE00;X1;03.10.2025;A COMPANY;C;"6082,30";"Arve nr: 1";EUR;\r'
    ).encode()
    assert rows_of(raw) == [
        (dt.date(2025, 10, 2), "expense", Decimal("3.00"), {}),
        (dt.date(2025, 10, 3), "income", Decimal("6082.30"), {}),
    ]


def test_seb_has_one_semicolon_more_on_each_line_than_its_header():
    raw = (
        '\ufeffKliendi konto;Kuupäev;"Saaja/maksja nimi";Deebet/Kreedit (D/C);Summa;"Selgitus";Valuuta\n'
        '"EE00";"04.09.2025";"SEB";"D";1,45;"kuutasu";"EUR";\n'
        '"EE00";"05.09.2025";"AMET";"C";42,00;"toetus";"EUR";\n'
        "\n"
    ).encode()
    assert rows_of(raw) == [
        (dt.date(2025, 9, 4), "expense", Decimal("1.45"), {}),
        (dt.date(2025, 9, 5), "income", Decimal("42.00"), {}),
    ]


def test_swedbank_estonia_leaves_out_its_opening_turnover_and_closing_lines():
    raw = (
        '"Kliendi konto";"Reatüüp";"Kuupäev";"Saaja/Maksja";"Selgitus";"Summa";"Valuuta";"Deebet/Kreedit";\n'
        '"EE00";"10";"01.01.2025";"";"Algsaldo";"8,39";"EUR";"K";\n'
        '"EE00";"20";"27.01.2025";"";"Kaardi kuutasu";"1,00";"EUR";"D";\n'
        '"EE00";"20";"02.05.2025";"A Friend";"Syya";"100,00";"EUR";"K";\n'
        '"EE00";"82";"09.11.2025";"";"Käive";"1,00";"EUR";"D";\n'
        '"EE00";"82";"09.11.2025";"";"Käive";"100,00";"EUR";"K";\n'
        '"EE00";"86";"09.11.2025";"";"lõppsaldo";"107,39";"EUR";"K";\n'
    ).encode()
    assert rows_of(raw) == [
        (dt.date(2025, 1, 27), "expense", Decimal("1.00"), {}),
        (dt.date(2025, 5, 2), "income", Decimal("100.00"), {}),
    ]


def test_a_value_date_alone_is_still_not_taken_over_a_booking_day():
    header = ["Kuupäev", "Väärtuspäev", "Selgitus", "Summa"]
    assert auto_mapping(header)["date"] == "Kuupäev"

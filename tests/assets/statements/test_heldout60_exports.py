"""Table tests of the readers on mBank's (Poland) `Lista operacji` found on heldout60 after its one measurement: its
header cells written with a `#` before each name, its `Opis operacji`, and card payments not settled yet, marked at
the end of their text (`transakcja nierozliczona`). Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

HEADER = "#Data operacji;#Opis operacji;#Rachunek;#Kategoria;#Kwota;\n"
MBANK = (
    "mBank S.A. Bankowość Detaliczna;\n\n#Klient;\nA HOLDER;\n\nLista operacji;\n\n"
    "      #Waluta;#Wpływy;#Wydatki;\nPLN;100,00;-60,00;\n      \n"
    + HEADER
    + '2026-04-08;"BLIK WYPŁATA ATM  PLANET CASH     ";"Konto 0000 ... 0003";"Wypłata gotówki";-50,00 PLN;;\n'
    + '2026-04-08;"A SHOP  ZAKUP PRZY UŻYCIU KARTY     transakcja nierozliczona";"Konto";"Bez kategorii";-31,43 PLN;;\n'
    + '2026-04-07;"AN EMPLOYER  PRZELEW ZEWNĘTRZNY PRZYCHODZĄCY  ";"Konto 0000 ... 0003";"Wpływy";100,00 PLN;;\n'
    + '2026-04-06;"A CAFE  ZAKUP PRZY UŻYCIU KARTY";"Konto 0000 ... 0003";"Jedzenie";-10,00 PLN;;\n'
)


def test_mbank_names_its_columns_behind_a_hash():
    # `#Kwota` is followed by an unnamed cell, so it is read for the currency as well as the figure: its cells
    # write both (`-800,00 PLN`).
    assert auto_mapping(HEADER.strip().split(";")) == {
        "date": "#Data operacji",
        "description": "#Opis operacji",
        "amount": "#Kwota",
        "currency": "#Kwota",
    }


def test_a_card_payment_not_settled_yet_is_not_booked():
    assert rows_of(MBANK.encode("utf-8-sig"), "PLN") == [
        (dt.date(2026, 4, 8), "expense", Decimal("50.00"), {}),
        (dt.date(2026, 4, 7), "income", Decimal("100.00"), {}),
        (dt.date(2026, 4, 6), "expense", Decimal("10.00"), {}),
    ]

"""Table tests of the readers on Postbank's `Umsatzauskunft` found on heldout59 after its one measurement: the
scheduled payments of the next fourteen days under a table of their own, titled as such, beside the booked lines
(`gebuchte Umsätze`) under theirs; its `Buchungsdetails`. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

LETTERHEAD = (
    "Umsatzauskunft;\r\nName;A Holder;\r\nIBAN;DE00100100100000000000;\r\nAktueller Kontostand;451,99 €;\r\n\r\n"
)
SCHEDULED = (
    "Umsätze in den nächsten 14 Tagen;\r\n"
    "Buchungsdatum;Umsatzart;Buchungsdetails;Auftraggeber;Empfänger;Betrag (€);\r\n"
    "26.01.2018;Dauerauftrag;;A Holder;A CHARITY;-25,00 €;\r\n"
    "31.01.2018;Überweisung;;A Holder;A LANDLORD;-700,00 €;\r\n"
)
BOOKED = (
    "gebuchte Umsätze;\r\n"
    "Buchungsdatum;Wertstellung;Umsatzart;Buchungsdetails;Auftraggeber;Empfänger;Betrag (€);Saldo (€);\r\n"
    "22.01.2018;22.01.2018;Dauerauftrag;;A Holder;A CHARITY;-25,00 €;451,99 €;\r\n"
    "18.01.2018;18.01.2018;Gutschrift;Referenz 0001;AN EMPLOYER;A Holder;476,99 €;476,99 €;\r\n"
)
READ = [
    (dt.date(2018, 1, 22), "expense", Decimal("25.00"), {}),
    (dt.date(2018, 1, 18), "income", Decimal("476.99"), {}),
]


def test_postbank_names_its_line_details():
    header = "Buchungsdatum;Wertstellung;Umsatzart;Buchungsdetails;Auftraggeber;Empfänger;Betrag (€);Saldo (€)"
    assert auto_mapping(header.split(";")) == {
        "date": "Buchungsdatum",
        "description": "Buchungsdetails",
        "amount": "Betrag (€)",
    }


@pytest.mark.parametrize(
    "tables",
    [
        SCHEDULED + "\r\n" + BOOKED,
        BOOKED + "\r\n" + SCHEDULED,
        BOOKED + "\r\n" + SCHEDULED.replace(";\r\nBuchungsdatum", ";\r\n   ;\r\nBuchungsdatum", 1),
    ],
    ids=["scheduled-first", "booked-first", "spaces-under-the-title"],
)
def test_a_table_titled_as_not_booked_yet_is_not_read(tables):
    assert rows_of((LETTERHEAD + tables).encode(), "EUR") == READ

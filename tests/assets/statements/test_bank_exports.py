"""Table tests of the readers on the bank exports found on heldout9 after its one measurement (test_bank_habits
holds the earlier parts' cases): each case a few lines of a real-shaped file and the rows it must give."""

import datetime as dt
from decimal import Decimal

import pytest

from tests.assets.statements.test_bank_habits import csv_rows


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
    ],
    ids=["ing-nl-af-bij", "knab-boekdatum", "sparkasse-vorgemerkt"],
)
def test_dutch_and_german_exports(text, want):
    assert [(r[0], r[1], r[2]) for r in csv_rows(text)] == want

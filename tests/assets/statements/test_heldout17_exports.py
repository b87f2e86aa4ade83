"""Table tests of the readers on the bank exports found on heldout17 after its one measurement: a Volksbank's
`Umsatzanzeige`, whose unsigned figures take their side from an unnamed column beside them (`S` for Soll, money
out; `H` for Haben, money in) and whose opening and closing balances are labelled under another column than the
description; a CAMT statement whose batched credits share one reference; found on heldout20, Fortis Belgium's
French header words; and, on heldout21, comdirect's pending line (`offen` where the booking day goes). Each case
a few lines as such a file has them (figures made up), and what it must give; and the guards the rules must not
catch."""

import datetime as dt
import io
import re
from decimal import Decimal

from assets.statements import detect
from assets.statements.camtfile import camt_rows
from assets.statements.headers import auto_mapping
from assets.statements.read import statement_rows
from tests.assets.statements.test_bank_habits_tagged import CAMT

HEADER = (
    '"Buchungstag";"Valuta";"Auftraggeber/Zahlungsempfänger";"Empfänger/Zahlungspflichtiger";"Konto-Nr.";"IBAN";'
    '"BLZ";"BIC";"Vorgang/Verwendungszweck";"Kundenreferenz";"Währung";"Umsatz";" "\n'
)


def rows_of(raw: bytes, currency: str = "EUR", today: dt.date | None = None):
    """Each row's date, direction, amount and problems; `today` the importer's, which yearless days are read up to."""
    head = raw[: detect.HEAD_BYTES]
    rows, _ = statement_rows(io.BytesIO(raw), kind="csv", head=head, currency=currency, today=today)
    return [(r.occurred_on, r.direction, r.amount, r.problems) for r in rows]


def test_an_unnamed_column_of_soll_and_haben_gives_each_unsigned_figure_its_side():
    raw = (
        '"Umsatzanzeige"\n\n'
        + HEADER
        + '"18.04.2019";"18.04.2019";"BANK";"Drogerie";;;;;"Basislastschrift";;"EUR";"31,49";"S"\n'
        '"17.04.2019";"17.04.2019";"FIRMA";"Nachname";;;;;"Lohn";;"EUR";"388,00";"H"\n'
        '"12.04.2019";;;;;;;;;"Anfangssaldo";"EUR";"8,93";"H"\n'
        '"18.04.2019";;;;;;;;;"Endsaldo";"EUR";"365,44";"H"\n'
    ).encode("latin-1")
    assert rows_of(raw) == [
        (dt.date(2019, 4, 18), "expense", Decimal("31.49"), {}),
        (dt.date(2019, 4, 17), "income", Decimal("388.00"), {}),
    ]


def test_a_named_soll_haben_column_writing_s_and_h_is_the_direction():
    raw = (
        b"Buchungstag;Verwendungszweck;Betrag;Soll/Haben\n18.04.2019;Lastschrift;31,49;S\n17.04.2019;Gehalt;388,00;H\n"
    )
    assert rows_of(raw) == [
        (dt.date(2019, 4, 18), "expense", Decimal("31.49"), {}),
        (dt.date(2019, 4, 17), "income", Decimal("388.00"), {}),
    ]


def test_an_unnamed_column_of_letters_is_not_read_as_sides_beside_signed_figures():
    """The figures' own signs say the way; an `S` column beside them (a size, a status) is left alone."""
    raw = (HEADER + '"18.04.2019";"18.04.2019";"A";"B";;;;;"Kauf";;"EUR";"-31,49";"S"\n'
           '"17.04.2019";"17.04.2019";"A";"B";;;;;"Lohn";;"EUR";"388,00";"S"\n').encode()  # fmt: skip
    assert [(day, way, amount) for day, way, amount, _ in rows_of(raw)] == [
        (dt.date(2019, 4, 18), "expense", Decimal("31.49")),
        (dt.date(2019, 4, 17), "income", Decimal("388.00")),
    ]


def test_camt_entries_sharing_one_reference_are_each_imported_under_ids_of_their_own():
    entry = (
        '<Ntry><NtryRef>{own}</NtryRef><Amt Ccy="CHF">{amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>'
        "<BookgDt><Dt>2020-11-24</Dt></BookgDt><AcctSvcrRef>07582000303KBMSU</AcctSvcrRef></Ntry>"
    )
    entries = entry.format(own="014295803", amount="1537.00") + entry.format(own="CH77", amount="1692.22")
    raw = re.sub("<Ntry>.*</Ntry>", entries, CAMT.format(created="", dates=""))
    rows = list(camt_rows(io.BytesIO(raw.encode())))
    assert [r.amount for r in rows] == [Decimal("1537.00"), Decimal("1692.22")]
    first, second = (r.external_id for r in rows)
    assert first != second and first.endswith(":07582000303KBMSU") and second == f"{first}:1"


def test_fortis_french_header_words_name_the_columns():
    header = [
        "ANNEE + REFERENCE", "DATE DE L'EXECUTION", "DATE VALEUR", "MONTANT", "DEVISE DU COMPTE",
        "CONTREPARTIE DE L'OPERATION", "DETAIL", "NUMERO DE COMPTE",
    ]  # fmt: skip
    assert auto_mapping(header) == {
        "date": "DATE DE L'EXECUTION", "amount": "MONTANT", "currency": "DEVISE DU COMPTE", "description": "DETAIL",
    }  # fmt: skip


def test_a_line_still_open_where_the_booking_day_goes_is_not_booked_yet():
    raw = (
        '"Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR";\n'
        '"offen";"--";"Kartenverfügung";"Text";"-23,86";\n'
        '"06.10.2023";"06.10.2023";"Lastschrift";"Text";"-40,01";\n'
    ).encode("latin-1")
    assert rows_of(raw) == [(dt.date(2023, 10, 6), "expense", Decimal("40.01"), {})]

"""Table tests of the readers on heldout71's file found after its one measurement: UBS's card statement in French
(`Texte comptable`, `Débit`, `Crédit`, booked on its `Ecriture` beside its `Date d'achat`), whose totals row runs
its sum into the booking column. Figures made up."""

import datetime as dt
from decimal import Decimal

from tests.assets.statements.test_heldout17_exports import rows_of

UBS_CARD_FR = (
    "sep=;\n"
    "Numéro de compte;Numéro de carte;Titulaire de compte/carte;Date d'achat;Texte comptable;Secteur;Montant;"
    "Monnaie originale;Cours;Monnaie;Débit;Crédit;Ecriture\n"
    "1234 5678 9012;XXXX XXXX XXXX 1234;A HOLDER;28.10.2019;A SHOP   Zurich   CHE;Commerce;215.00;CHF;;CHF;215.00;;"
    "29.10.2019\n"
    "1234 5678 9012;XXXX XXXX XXXX 1234;A HOLDER;02.11.2019;A REFUND   Bern   CHE;Commerce;15.00;CHF;;CHF;;15.00;"
    "04.11.2019\n"
    "\n"
    ";;;;Total par monnaie;;;;;;;;Total\n"
    ";;;;Total des écritures de carte;;;;;CHF;215.00;15.00;-200.00\n"
)


def test_a_ubs_card_in_french_is_booked_on_its_ecriture_and_its_totals_row_is_no_line():
    rows = rows_of(UBS_CARD_FR.encode("latin-1"), "CHF")
    assert [r[:3] for r in rows] == [
        (dt.date(2019, 10, 29), "expense", Decimal("215.00")),
        (dt.date(2019, 11, 4), "income", Decimal("15.00")),
    ]
    assert all(not r[3] for r in rows)

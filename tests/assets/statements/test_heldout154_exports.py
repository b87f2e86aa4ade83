"""Table tests of the readers on what heldout154 showed after its one measurement: a broker's cash account
(Nordnet) lists, beside its cash, the lines where securities alone came in or left (`INNLØSN. UTTAK VP`, the
shares of a forced buy-out taken out, their value in `Beløp`, the cash balance unmoved): no money moved on those.
Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from tests.assets.statements.test_heldout109_exports import booked

HEADER = (
    "Id\tBokføringsdag\tHandelsdag\tOppgjørsdag\tPortefølje\tTransaksjonstype\tVerdipapir\tType verdipapir\tISIN\t"
    "Antall\tKurs\tRente\tTotale Avgifter\tValuta\tBeløp\tValuta\tKjøpsverdi\tValuta\tResultat\tValuta\t"
    "Totalt antall\tSaldo\tVekslingskurs\tTransaksjonstekst\tMakuleringsdato\tSluttseddelnummer\t"
    "Verifikationsnummer\tKurtasje\tValuta\n"
)


def nordnet(kind: str) -> str:
    return (
        "\ufeff" + HEADER
        + "3\t14.04.2022\t13.04.2022\t13.04.2022\t111\tINNL. VP LIKVID\tSBANK\tAktier\tNO0010739402\t70\t104,45\t0\t0\t"
        "NOK\t7 311,50\tNOK\t0\t\t0\t\t0\t7 344,45\t1\tCompulsory acquisition\t\t\t9\t\t\n"
        + f"2\t14.04.2022\t13.04.2022\t13.04.2022\t111\t{kind}\tSBANK\tAktier\tNO0010739402\t70\t104,45\t0\t0\t"
        "NOK\t7 311,50\tNOK\t0\t\t2 975\t\t0\t32,95\t1\tCompulsory acquisition\t\t\t8\t\t\n"
        + "1\t06.05.2021\t06.05.2021\t10.05.2021\t111\tKJØPT\tSBANK\tAktier\tNO0010739402\t70\t62,00\t0\t0\t"
        "NOK\t-4 340\tNOK\t4 340\tNOK\t0\tNOK\t70\t32,95\t1\t\t\t7\t7\t0\tNOK\n"
    )  # fmt: skip


@pytest.mark.parametrize("kind", ["INNLØSN. UTTAK VP", "UTTAK VP", "INNLEGG VP", "INLÄGG VP", "UTTAG VP"])
def test_a_brokers_line_of_securities_alone_moves_no_money(kind):
    assert booked(nordnet(kind), "NOK", "utf-16") == [
        (dt.date(2022, 4, 14), "income", Decimal("7311.50")),
        (dt.date(2021, 5, 6), "expense", Decimal("4340.00")),
    ]

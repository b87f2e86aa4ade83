"""Table tests of the readers on Skandiabanken's export found on heldout33 after its one measurement: Norwegian
column names (`BOKFØRINGSDATO`, `RENTEDATO`, `TEKST`, `UT FRA KONTO`, `INN PÅ KONTO`) and the opening and closing
balances written above and below the table as undated lines (`INNGÅENDE SALDO 01.01.2014`). Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

HEADER = '"BOKFØRINGSDATO"\t"RENTEDATO"\t"ARKIVREFERANSE"\t"TYPE"\t"TEKST"\t"UT FRA KONTO"\t"INN PÅ KONTO"\t\n'


def test_skandiabanken_names_its_columns_in_norwegian():
    assert auto_mapping(HEADER.replace('"', "").split("\t")[:-1]) == {
        "date": "BOKFØRINGSDATO",
        "description": "TEKST",
        "debit": "UT FRA KONTO",
        "credit": "INN PÅ KONTO",
    }


def test_a_skandiabanken_statement_between_its_balance_lines():
    raw = (
        '\t\t\t\t"UTGÅENDE SALDO 31.01.2014"\t\t179.95\n\n'
        + HEADER
        + '"2014-01-30"\t"2014-01-30"\t"1"\t"Varekjøp"\t"29.01 COOP EXTRA"\t110.09\t\t\n'
        '"2014-01-03"\t"2014-01-03"\t"2"\t"Overføring"\t"Overføring SMS"\t\t500.00\t\n'
        '\n\t\t\t\t"INNGÅENDE SALDO 01.01.2014"\t\t389.39\n'
    ).encode("latin-1")
    assert rows_of(raw, "NOK") == [
        (dt.date(2014, 1, 30), "expense", Decimal("110.09"), {}),
        (dt.date(2014, 1, 3), "income", Decimal("500.00"), {}),
    ]

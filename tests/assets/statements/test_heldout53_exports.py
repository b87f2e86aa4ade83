"""Table tests of the readers on heldout53's files found after its one measurement: BCR's (Romania) CSV, which writes
its statement's dates, currency and totals on every line beside the day the transaction was completed, and
WebMoney's purse export, whose `Комиссия` (fee) column is paid on top of each payment. Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

BCR_HEADER = (
    "Data emitere extras,Ora emitere extras,Data inceput,Data finala,Valuta,Curs BNR,"
    "Contul pentru care s-a generat extrasul,Tip produs,Titular cont,Sold contabil initial,"
    "Data finalizarii tranzactiei,Ora finalizare tranzactie,Tranzactii finalizate (detalii),"
    "Referinta Oper. Document,Debit (suma),Credit (suma),Total debit (suma),Total credit (suma),"
    "Sold contabil final,Sume blocate,Sold disponibil,Plafon disponibil din linii de credit\n"
)
STATEMENT = "30.09.2014,10:00,01.09.2014,30.09.2014,RON,,RO00RNCB0000000000000001,Cont curent,FIRMA SRL,"
TOTALS = ",0.00,0.00,0.00"  # blocked sums, available balance, credit line: the statement's, on every line
BCR = BCR_HEADER + (
    STATEMENT
    + '"1,000.00",02.09.2014,11:33,"Tranzactie comerciant - OMV",1,120.50,0.00,0.00,0.00,0.00'
    + TOTALS
    + "\n"
    + STATEMENT
    + '0.00,02.09.2014,13:36,"Plata",2,0.00,"2,500.00",120.50,"2,500.00","3,379.50"'
    + TOTALS
    + "\n"
    + STATEMENT
    + '0.00,03.09.2014,09:10,Comision,3,4.00,0.00,4.00,0.00,"3,375.50"'
    + TOTALS
    + "\n"
    + "30.09.2014,,,,,,,,,,,,,,,,,,,,,\n"
)
WEBMONEY = (
    "Дата;Приход;Расход;Комиссия;Остаток;Кошелёк корреспондента;Примечание;Тип операции;\n"
    '"2011.08.13 13:23:32";;150.00;1.50;848.50;"R000000000001";"Оплата связи";"Расход, оплата счёта";\n'
    '"2011.08.14 09:00:00";200.00;;;1048.50;"R000000000002";"Перевод";"Приход";\n'
)


def test_bcr_names_the_day_the_transaction_was_completed_and_its_details_not_its_statement_dates():
    assert auto_mapping(BCR_HEADER.strip().split(",")) == {
        "date": "Data finalizarii tranzactiei",
        "description": "Tranzactii finalizate (detalii)",
        "debit": "Debit (suma)",
        "credit": "Credit (suma)",
    }


def test_bcr_reads_each_completed_transaction_and_not_the_statement_line_that_closes_it():
    assert rows_of(BCR.encode(), "RON") == [
        (dt.date(2014, 9, 2), "expense", Decimal("120.50"), {}),
        (dt.date(2014, 9, 2), "income", Decimal("2500.00"), {}),
        (dt.date(2014, 9, 3), "expense", Decimal("4.00"), {}),
    ]


def test_a_purses_fee_is_paid_on_top_of_the_payment():
    assert rows_of(WEBMONEY.encode("cp1251"), "RUB") == [
        (dt.date(2011, 8, 13), "expense", Decimal("151.50"), {}),
        (dt.date(2011, 8, 14), "income", Decimal("200.00"), {}),
    ]

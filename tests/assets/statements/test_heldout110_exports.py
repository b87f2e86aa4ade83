"""Table tests of the readers on what heldout110 and heldout111 showed after their one measurement: a card that
says it received its owner's payment (Nubank's `Pagamento recebido`) writes its charges positive; Revolut's Italian
statement (`Data di completamento`, `Costo`, `OPERAZIONE ANNULLATA`, `In sospeso`, a savings pocket's lines under
the current account's); DEGIRO's Italian `Variazioni` over its currency and figure; and heldout116's JD Finance
export: its `不计收支` (neither income nor spending) lines move money the way their figures are written, and a note in
brackets after a figure (`14.70(已退款0.80)`) is no part of it. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.figures import without_note
from tests.assets.statements.test_heldout109_exports import booked


def test_a_card_that_says_it_received_a_payment_writes_its_charges_positive():
    raw = (
        "date,category,title,amount\n2017-01-18,transporte,Sportrodas 2/6,280.83\n"
        "2017-01-24,,Pagamento recebido,-1024.79\n2017-01-24,outros,Registro,40\n"
    )
    assert booked(raw, "BRL") == [
        (dt.date(2017, 1, 18), "expense", Decimal("280.83")),
        (dt.date(2017, 1, 24), "income", Decimal("1024.79")),
        (dt.date(2017, 1, 24), "expense", Decimal("40.00")),
    ]


def test_revolut_in_italian_reads_the_current_accounts_completed_lines_less_their_fees():
    raw = (
        "Tipo,Prodotto,Data di inizio,Data di completamento,Descrizione,Importo,Costo,Valuta,State,Saldo\n"
        "Ricarica,Attuale,2022-03-29 08:19:35,2022-03-29 08:19:36,Ricarica,200.00,0.00,EUR,COMPLETATO,200.00\n"
        "Pagamento con carta,Attuale,2022-03-29 12:02:11,2022-03-31 12:02:28,Negozio,-20.00,0.50,EUR,COMPLETATO,"
        "179.50\n"
        "Pagamento con carta,Attuale,2022-04-01 10:00:00,,Negozio,-5.00,0.00,EUR,OPERAZIONE ANNULLATA,\n"
        "Pagamento con carta,Attuale,2022-04-02 10:00:00,,Bar,-3.00,0.00,EUR,In sospeso,\n"
        "Trasferimento,Attuale,2022-04-03 09:00:00,2022-04-03 09:00:00,Al pocket EUR,-50.00,0.00,EUR,COMPLETATO,"
        "129.50\n"
        "Pagamento,Risparmi,2022-04-03 09:00:00,2022-04-03 09:00:00,Dal conto,50.00,0.00,EUR,COMPLETATO,50.00\n"
    )
    assert booked(raw, "EUR") == [
        (dt.date(2022, 3, 29), "income", Decimal("200.00")),
        (dt.date(2022, 3, 31), "expense", Decimal("20.50")),
        (dt.date(2022, 4, 3), "expense", Decimal("50.00")),
    ]


def test_degiro_in_italian_reads_its_variazioni_figure_beside_the_currency():
    raw = (
        "Data,Ora,Data Valore,Prodotto,ISIN,Descrizione,Borsa,Variazioni,,Saldo,,ID Ordine\n"
        "20-05-2024,17:16,20-05-2024,FLATEX EURO BANKACCOUNT,NLFLATEXACNT,Degiro Cash Sweep Transfer,,EUR,-1.57,"
        "EUR,950.43,\n"
        "18-05-2024,07:09,17-05-2024,,,Deposito,,EUR,100.00,EUR,952.00,\n"
    )
    assert booked(raw, "EUR") == [
        (dt.date(2024, 5, 20), "expense", Decimal("1.57")),
        (dt.date(2024, 5, 18), "income", Decimal("100.00")),
    ]


@pytest.mark.parametrize(
    ("text", "figure"),
    [
        ("14.70(已退款0.80)", "14.70"),
        ("1,000.00 (fee included)", "1,000.00"),
        ("(150.00)", "(150.00)"),
        ("12 (3)", "12 (3)"),
    ],
)
def test_a_note_in_brackets_after_a_figure_is_no_part_of_it(text, figure):
    assert without_note(text) == figure


def test_a_chinese_wallets_lines_counted_neither_way_move_money_as_written():
    raw = (
        "交易时间,商户名称,交易说明,金额,收/付款方式,交易状态,收/支,交易分类\n"
        "2025-12-28 11:15:29\t,京东物流,快递,16.00,信用卡(3698),交易成功,支出,收发快递\n"
        "2025-12-20 09:00:00\t,京东平台商户,书,14.70(已退款0.80),信用卡(3698),交易成功,支出,教育培训\n"
        "2025-11-12 08:13:19\t,京东金融,价保退款,0.80,余额,交易成功,不计收支,其他\n"
    )
    assert booked(raw, "CNY") == [
        (dt.date(2025, 12, 28), "expense", Decimal("16.00")),
        (dt.date(2025, 12, 20), "expense", Decimal("14.70")),
        (dt.date(2025, 11, 12), "income", Decimal("0.80")),
    ]

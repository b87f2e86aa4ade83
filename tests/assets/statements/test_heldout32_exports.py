"""Table tests of the readers on the exports found on heldout32 after its one measurement: Caixa Geral de
Depósitos' CSVs (Portuguese names: `Data mov.`, `Data-valor`, `Descrição`, `Montante`, `Débito`, `Crédito`) and
Santander Chile's sheet (`Monto`, `Descripción movimiento`; under its movements a `Resumen comisiones` repeating
the month's fee, then a `SALDO`, `FECHA` table of daily balances). Figures and names made up; and the guards the
rules must not catch."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of

CAIXA_PREAMBLE = (
    "Consultar saldos e movimentos \xe0 ordem - 15-02-2026;\r\n\r\nConta ;0000 - EUR - Conta Extracto \r\n"
    "Saldo contabil\xedstico ;1.000,00 EUR \r\n\r\n"
)


def test_caixa_geral_names_its_columns_in_portuguese():
    header = ["Data mov.", "Data-valor", "Descrição", "Débito", "Crédito", "Saldo contabilístico", "Categoria"]
    assert auto_mapping(header) == {
        "date": "Data mov.",
        "description": "Descrição",
        "debit": "Débito",
        "credit": "Crédito",
    }


def test_a_caixa_geral_statement_with_one_signed_amount():
    raw = (
        CAIXA_PREAMBLE
        + "Data mov. ;Data-valor ;Descri\xe7\xe3o ;Montante ;Saldo contabil\xedstico ap\xf3s movimento ;\r\n"
        "15-02-2026;14-02-2026;DOMINIOS ;-4,74;1.000,00;\r\n"
        "12-02-2026;12-02-2026;TRF Lucros ;1.250,00;1.004,74;\r\n"
    ).encode("cp1252")
    assert rows_of(raw) == [
        (dt.date(2026, 2, 15), "expense", Decimal("4.74"), {}),
        (dt.date(2026, 2, 12), "income", Decimal("1250.00"), {}),
    ]


def test_a_caixa_geral_statement_with_debit_and_credit_and_its_closing_balance_line():
    raw = (
        CAIXA_PREAMBLE + "Data mov. ;Data valor ;Descri\xe7\xe3o ;D\xe9bito ;Cr\xe9dito ;Saldo contabil\xedstico ;"
        "Saldo dispon\xedvel ;Categoria ;\n"
        "30-09-2024;27-09-2024;BX VALOR ;14,90;;4.070,54;4.070,54;Diversos ;\n"
        "28-09-2024;28-09-2024;TRF CXDAPP ;;10.000,00;4.085,44;4.085,44;Diversos ;\n"
        " ; ; ; ;Saldo contabil\xedstico ;4.070,54 EUR ; ; ;\n"
    ).encode("cp1252")
    assert rows_of(raw) == [
        (dt.date(2024, 9, 30), "expense", Decimal("14.90"), {}),
        (dt.date(2024, 9, 28), "income", Decimal("10000.00"), {}),
    ]


SANTANDER = (
    "Detalle movimientos;Detalle movimientos;Detalle movimientos;Detalle movimientos\n"
    "MONTO;DESCRIPCI\xd3N MOVIMIENTO;FECHA;CARGO/ABONO\n"
    "1101259;Abono Ventas;03/02/2025;A\n"
    "-38001;COM.MANTENCION PLAN;26/02/2025;C\n"
    "-3650;Compra;28/02/2025;C\n"
)


def test_santander_chile_leaves_out_its_fee_summary_and_daily_balances():
    raw = (
        SANTANDER + "Resumen comisiones;Resumen comisiones;Resumen comisiones;Resumen comisiones\n"
        "MONTO;DESCRIPCI\xd3N MOVIMIENTO;FECHA;CARGO/ABONO\n"
        "-38.001;COM.MANTENCION PLAN;26/02/2025;C\n"
        "Saldos diarios;;;\nSALDO;FECHA;;\n185196;03/02/2025;;\n13334820;28/02/2025;;\n"
    ).encode("cp1252")
    assert rows_of(raw, "CLP") == [
        (dt.date(2025, 2, 3), "income", Decimal("1101259"), {}),
        (dt.date(2025, 2, 26), "expense", Decimal("38001"), {}),
        (dt.date(2025, 2, 28), "expense", Decimal("3650"), {}),
    ]


def test_a_line_whose_text_begins_with_summary_is_still_a_line():
    raw = (SANTANDER + "-5000;Resumen de cuenta;28/02/2025;C\n").encode("cp1252")
    assert rows_of(raw, "CLP")[-1] == (dt.date(2025, 2, 28), "expense", Decimal("5000"), {})


def test_an_undated_line_of_words_that_are_no_column_names_is_still_a_bad_row():
    raw = (SANTANDER + "ALGO;OTRA COSA;;\n").encode("cp1252")
    last = rows_of(raw, "CLP")[-1]
    assert last[0] is None and "date" in last[3]

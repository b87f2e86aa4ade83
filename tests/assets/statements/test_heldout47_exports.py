"""Table tests of the readers on the Indonesian exports found on heldout47 after its one measurement: BNI's
workbook (`Tanggal Kirim`, `Deskripsi`, an unsigned `Amount` beside a `Db/Cr` column, its lines numbered `No.`)
and Bank Jatim's (`No` numbering the lines beside its `Debit` and `Credit`). English's `No` folds as Vietnamese's
`Nợ` (debit) is written: it is Nợ only beside a Có. Figures made up."""

import datetime as dt
from decimal import Decimal

from assets.statements.headers import auto_mapping
from tests.assets.statements.tables import sheet_rows, xlsx


def test_bni_reads_its_side_column_and_its_numbered_lines_are_no_debit():
    header = ["No.", "Tanggal Kirim", "Cabang", "Journal No.", "Deskripsi", "Amount", "Db/Cr", "Balance"]
    lines = [
        [1, "24/09/2025 05:20", "Unit E-Banking", 297650, "TRANSFER DARI", 150000, "C", 54157300],
        [2, "24/09/2025 12:38", "TBS", 980056, "PEMINDAHAN KE", 56319500, "D", 2500],
    ]
    assert [row[:3] for row in sheet_rows(xlsx([header, *lines]))] == [
        (dt.date(2025, 9, 24), "income", Decimal("150000")),
        (dt.date(2025, 9, 24), "expense", Decimal("56319500")),
    ]


def test_bank_jatim_numbers_its_lines_no_beside_its_debit_and_credit():
    header = ["No", "Post Date", "Effective Date", "Account", "Name", "Description", "Currency", "Debit", "Credit",
              "Balance", "Reference No"]  # fmt: skip
    lines = [
        [229, "16/01/2023 16:28", "16/01/2023", None, None, "001 POLI", "IDR", 0, 2115000, 232835303758.61, 164],
        [230, "17/01/2023 09:02", "17/01/2023", None, None, "BIAYA ADM", "IDR", 15000, 0, 232835288758.61, 165],
    ]
    assert [row[:3] for row in sheet_rows(xlsx([header, *lines]))] == [
        (dt.date(2023, 1, 16), "income", Decimal("2115000")),
        (dt.date(2023, 1, 17), "expense", Decimal("15000")),
    ]


def test_vietnamese_no_and_co_stay_debit_and_credit():
    assert auto_mapping(["Ngày", "Nội dung", "Nợ", "Có", "Số dư"]) == {
        "date": "Ngày",
        "description": "Nội dung",
        "debit": "Nợ",
        "credit": "Có",
    }

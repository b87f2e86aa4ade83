"""Table tests of the 1C reader on heldout64's file found after its measurement: a stray line between two documents
(Rosselkhozbank's `"Левая строка"`) is passed over; inside a document, or a second signature, it still refuses the
file. Figures made up."""

from decimal import Decimal

from tests.assets.statements.test_bank_standards import refused_code, rows_of
from tests.assets.statements.test_onec import document, onec, section

STRAY = '"Левая строка"'


def test_a_stray_line_between_documents_is_passed_over():
    raw = onec(document(), STRAY, document(amount="250.00"), sections=[section(out="1750.00")])
    assert [(row.direction, row.amount) for row in rows_of(raw)] == [
        ("expense", Decimal("1500.00")),
        ("expense", Decimal("250.00")),
    ]


def test_a_stray_line_inside_a_document_still_refuses_the_file():
    inside = document().replace("Сумма=1500.00", f"Сумма=1500.00\n{STRAY}")
    assert refused_code(onec(inside, sections=[section()])) == "INVALID_1C"

"""Table tests of the readers on the bank exports found on heldout22 after its one measurement: an SGML OFX that
closes no element at all (Mercury's), whole to its ledger balance; Russian banks' header words (Alfa-Bank's
`Приход`/`Расход`, Sberbank's processing day and figure in the account's currency); a figure written without
its leading zero (`-,01`). Each case a few lines as such a file has them (figures made up), and what it must
give; and the guards the rules must not catch."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.headers import auto_mapping
from assets.statements.ofxfile import ofx_rows
from assets.statements.rows import ImportRejected
from tests.assets.statements.test_heldout17_exports import rows_of

UNCLOSED = (
    "OFXHEADER:100\nDATA:OFXSGML\nVERSION:151\n\n<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n<STMTRS>\n<CURDEF>USD\n"
    "<BANKACCTFROM>\n<ACCTID>2024\n<BANKTRANLIST>\n"
    "<STMTTRN>\n<TRNTYPE>CREDIT\n<DTPOSTED>20260316123950.086[+0:UTC]\n<TRNAMT>36.73\n<FITID>a1\n<NAME>GOVCRAFT\n"
    "<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20260318213825.657[+0:UTC]\n<TRNAMT>-5.33\n<FITID>b2\n<NAME>ELEVENLABS\n"
)


def _ofx(text: str):
    return [(r.occurred_on, r.amount, r.direction) for r in ofx_rows(text.encode(), currency="USD")]


def test_an_ofx_closing_nothing_is_whole_to_its_ledger_balance():
    text = UNCLOSED + "<LEDGERBAL>\n<BALAMT>31.40\n<DTASOF>20260319000000.000[+0:UTC]\n"
    assert _ofx(text) == [
        (dt.date(2026, 3, 16), Decimal("36.73"), "income"),
        (dt.date(2026, 3, 18), Decimal("5.33"), "expense"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        UNCLOSED,  # closing nothing and stopping before its balance: cut short
        UNCLOSED + "</STMTTRN>\n<LEDGERBAL>\n<BALAMT>31.40\n",  # closing some elements, but never </OFX>
    ],
    ids=["no-balance", "closes-some"],
)
def test_an_ofx_cut_short_is_still_refused(text):
    with pytest.raises(ImportRejected) as caught:
        _ofx(text)
    assert caught.value.code == "INVALID_OFX"


@pytest.mark.parametrize(
    ("header", "want"),
    [
        (
            ["Тип счёта", "Номер счета", "Валюта", "Дата операции", "Референс проводки", "Описание операции",
             "Приход", "Расход"],
            {"date": "Дата операции", "description": "Описание операции", "credit": "Приход", "debit": "Расход"},
        ),
        (
            ["Тип карты", "Номер карты", "Дата совершения операции", "Дата обработки операции", "Код авторизации",
             "Тип операции", "Описание", "Валюта операции", "Сумма в валюте операции", "Сумма в валюте счета"],
            {"date": "Дата обработки операции", "description": "Описание", "amount": "Сумма в валюте счета"},
        ),
    ],
    ids=["alfa-bank", "sberbank"],
)  # fmt: skip
def test_russian_header_words(header, want):
    assert auto_mapping(header) == want


def test_a_figure_without_its_leading_zero():
    raw = (
        "Дата обработки операции;Описание;Сумма в валюте счета;\n10.04.2019;SBOL перевод;-,01;\n"
        "01.04.2019;CARD2CARD;100,23;\n"
    ).encode()
    assert rows_of(raw, currency="RUB") == [
        (dt.date(2019, 4, 10), "expense", Decimal("0.01"), {}),
        (dt.date(2019, 4, 1), "income", Decimal("100.23"), {}),
    ]

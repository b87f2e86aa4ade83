"""Table tests of the readers on what heldout105 showed after its one measurement: a Korean card's statement
(Lotte Card's `이용대금명세서`) whose header is written on two rows, its figure named only on the lower one (`원금`,
the principal billed this month, and `수수료`, the fee, under `이번 달 입금하실 금액`); its charges are written
positive, and a fee paid back with points as a negative fee. Figures made up."""

import datetime as dt
from decimal import Decimal

from tests.assets.statements.tables import sheet_rows, xlsx

UPPER = ["이용일", "이용카드", "이용가맹점", "이용총액", "회차", "할부", "이번 달 입금하실 금액", None]
UPPER += ["적립예정", "결제 후 잔액"]
LOWER = [None, None, None, None, None, None, "원금", "수수료", None, None]


def lotte(*lines: list) -> bytes:
    title = [["이용대금명세서"], [], ["■ 요약내역"], ["이용내역", None, "금액"], ["이번달", "일시불", 31500], []]
    return xlsx([*title, ["■ 상세내역"], UPPER, LOWER, *lines])


def test_a_korean_cards_two_row_header_reads_its_charges_and_fees_as_money_out():
    raw = lotte(
        ["2022.05.02", "본인세븐유닛", "버스 이용", None, None, None, 7900, None, "490P", None],
        ["2022.05.07", "본인세븐유닛", "생활맥주", None, None, None, 22500, None, None, None],
        ["2022.05.09", "본인세븐유닛", "맞춤서비스수수료 발생금액", None, None, None, None, 600, None, None],
        ["2022.05.09", "본인세븐유닛", "수수료 포인트결제", None, None, None, None, -600, None, None],
    )
    assert [row[:4] for row in sheet_rows(raw)] == [
        (dt.date(2022, 5, 2), "expense", Decimal("7900"), "버스 이용"),
        (dt.date(2022, 5, 7), "expense", Decimal("22500"), "생활맥주"),
        (dt.date(2022, 5, 9), "expense", Decimal("600"), "맞춤서비스수수료 발생금액"),
        (dt.date(2022, 5, 9), "income", Decimal("600"), "수수료 포인트결제"),
    ]


def test_a_bank_accounts_negative_fee_is_still_charged():
    raw = xlsx([["Ngày giao dịch", "Số tiền", "Phí", "Nội dung"], ["02/05/2022", "-100000", "-1100", "Chuyen tien"]])
    assert [row[:3] for row in sheet_rows(raw)] == [(dt.date(2022, 5, 2), "expense", Decimal("101100"))]

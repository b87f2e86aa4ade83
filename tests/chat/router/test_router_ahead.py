"""The looking-ahead texts (CONTRACT §9.3) reach the coach by pattern, in Vietnamese with and without
diacritics and in English, and the coach offers the tools that answer them."""

import unicodedata

import pytest

from chat.router import WORKFLOW_TOOLS, route_by_patterns


def workflow(*texts):
    route = route_by_patterns(list(texts))
    return route.workflow if route else None


@pytest.mark.parametrize(
    "text",
    [
        "tôi có bị thiếu tiền trước ngày lương không?",
        "toi co bi thieu tien truoc ngay luong khong?",
        "Will I run short of money before payday?",
        "show me my cash flow forecast",
        "dự báo dòng tiền tháng này",
        "ai đang nợ tôi?",
        "ai dang no toi?",
        "who owes me money?",
        "Minh borrowed 2tr from me, he'll pay back in 3 months",
        "tôi cho vay Minh 2 triệu",
        "toi cho vay Minh 2 trieu",
        "khoản vay mua xe trả góp 12 tháng",
        "Minh trả nợ 500k",
        "minh tra no 500k",
        "đặt ngân sách ăn uống 3 triệu",
        "dat ngan sach an uong 3 trieu",
        "set a dining budget of 3 million",
        "change my dining budget to 2.5tr",
        "delete my shopping budget",
        "xóa ngân sách mua sắm",
        "hôm nay tôi được chi bao nhiêu?",
        "hom nay toi duoc chi bao nhieu?",
        "how much is safe to spend today?",
        "make a VietQR for Minh's debt",
        # The three questions of issue 30 as people also type them: capitals, no question mark, other words.
        "TÔI CÓ BỊ THIẾU TIỀN TRƯỚC NGÀY LƯƠNG KHÔNG",
        "toi co thieu tien truoc ngay nhan luong khong",
        "will I run out of money before my salary?",
        "Ai đang nợ tôi",
        "AI DANG NO TOI",
        "ai còn nợ tôi tiền?",
        "Who owes me",
        "Đặt ngân sách ăn uống 3 triệu",
        "DAT NGAN SACH AN UONG 3TR",
        "set my food budget to 3 million",
    ],
)
def test_looking_ahead_goes_to_the_coach(text):
    assert workflow(text) == "coach"


@pytest.mark.parametrize(
    "text", ["tôi có bị thiếu tiền trước ngày lương không?", "ai đang nợ tôi?", "đặt ngân sách ăn uống 3 triệu"]
)
def test_decomposed_diacritics_route_as_composed_ones(text):
    # A keyboard that sends NFD (a base letter, then its combining marks) asks the same question.
    assert workflow(unicodedata.normalize("NFD", text)) == "coach"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no", None),  # a bare English "no" is a terse reply, not a debt
        ("KFC 150k", "create"),
        ("delete the KFC transaction", "delete"),
        ("xóa giao dịch cà phê", "delete"),
        ("delete my loan asset", "asset_delete"),
        ("delete the loan payment transaction", "delete"),
        ("change the category of the debt payment transaction", "update"),
    ],
)
def test_other_intents_are_unchanged(text, expected):
    assert workflow(text) == expected


def test_the_coach_offers_the_looking_ahead_tools():
    coach = set(WORKFLOW_TOOLS["coach"])
    assert {"get_plan", "get_cash_forecast", "list_debts", "create_debt", "record_debt_payment"} <= coach
    assert {"create_budget", "update_budget", "delete_budget", "get_debt_vietqr"} <= coach
    assert {"get_plan", "get_cash_forecast", "list_debts"} <= set(WORKFLOW_TOOLS["inspect"])
    assert "delete_budget" not in WORKFLOW_TOOLS["inspect"]


def test_a_pasted_vietqr_payload_is_a_bank_text_by_pattern():
    from decimal import Decimal

    from assets.vietqr import payload as vq

    qr = vq.encode(vq.VietQR(bank_bin="970436", account="0071000124821", amount=Decimal(50000), purpose="CF"))
    route = route_by_patterns([qr])
    assert (route.workflow, route.decided_by) == ("bank_text", "pattern")
    assert "read_bank_text" in WORKFLOW_TOOLS["bank_text"]


@pytest.mark.parametrize(
    "text",
    [
        # A budget is also a spending limit ("hạn mức", "giới hạn chi tiêu"): these went to inspect (no budget
        # tool), to create (a 3,000,000 expense "hạn mức ăn uống") or to delete (transactions).
        "đặt hạn mức chi tiêu ăn uống 3 triệu",
        "dat han muc chi tieu an uong 3 trieu",
        "giới hạn chi tiêu ăn uống 3 triệu mỗi tháng",
        "hạn mức ăn uống 3 triệu",
        "đổi hạn mức chi tiêu ăn uống thành 2 triệu",
        "xóa hạn mức chi tiêu ăn uống",
        "limit my dining spending to 3 million",
        "cap my food spending at 3tr a month",
        "set a spending limit for dining of 3 million",
    ],
)
def test_a_spending_limit_is_a_budget_for_the_coach(text):
    assert workflow(text) == "coach"


@pytest.mark.parametrize("text", ["hạn mức thẻ tín dụng của tôi là 50 triệu", "tăng hạn mức thẻ VIB lên 80tr"])
def test_a_cards_credit_limit_is_no_budget(text):
    assert workflow(text) != "coach"

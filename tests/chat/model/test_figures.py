"""Money figures and percentages in a reply, checked against the turn's tool results: tables in English and
Vietnamese, replies that quote the tools (not flagged) and replies that make a figure up (flagged)."""

from decimal import Decimal

import pytest

from chat.figures import extract_figures, unverified_figures


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("You spent 1,250,000 ₫ on food.", [("1,250,000 ₫", "1250000", "money")]),
        ("Bạn đã chi 1.250.000 ₫.", [("1.250.000 ₫", "1250000", "money")]),
        ("khoảng 1.25tr", [("1.25tr", "1250000", "money")]),
        ("còn 2 triệu", [("2 triệu", "2000000", "money")]),
        ("a 150k lunch", [("150k", "150000", "money")]),
        ("it costs 12.50 USD", [("12.50 USD", "12.50", "money")]),
        ("it costs $12.50.", [("$12.50", "12.50", "money")]),
        ("20.000đ", [("20.000đ", "20000", "money")]),
        ("€1.234,56", [("€1.234,56", "1234.56", "money")]),
        ("30 % of it", [("30 %", "30", "percent")]),
        ("tức 30% ngân sách", [("30%", "30", "percent")]),
        ("12,5% lãi", [("12,5%", "12.5", "percent")]),
        ("a total of 1,250,000", [("1,250,000", "1250000", "money")]),
        # not money: dates, day counts, ids, years, counts of things, bare numbers
        ("on 2026-11-30, 30/11/2026 or 30.11.2026", []),
        ("in the last 30 days, 12 ngày", []),
        ("transaction #42 and id 17", []),
        ("since 2026", []),
        ("1,200 transactions and 3 giao dịch", []),
        ("you have 3 goals", []),
        ("15 transactions this month", []),
    ],
)
def test_it_finds_the_figures_a_reply_states(text, found):
    assert [(f.text, str(f.value), f.kind) for f in extract_figures(text)] == [(t, v, k) for t, v, k in found]


BUDGETS = {
    "month": "2026-11",
    "budgets": [
        {"category": "food", "amount": "5000000", "spent": "1250000", "remaining": "3750000"},
        {"category": "transport", "amount": "1000000", "spent": "850000", "remaining": "150000"},
    ],
}
TRANSACTIONS = {
    "transactions": [
        {"id": 7, "occurred_on": "2026-11-30", "amount": "150000", "currency": "VND", "description": "KFC"},
        {"id": 8, "occurred_on": "2026-11-29", "amount": "2350000", "currency": "VND", "description": "Rent"},
        {"id": 9, "occurred_on": "2026-11-28", "amount": "45000", "currency": "VND", "description": "Grab"},
    ]
}
USD = {"transactions": [{"id": 1, "amount": "12.50", "currency": "USD"}, {"id": 2, "amount": "7.25"}]}


@pytest.mark.parametrize(
    ("reply", "sources", "unverified"),
    [
        # quoting a tool's numbers, its column totals, sums, differences and ratios: nothing flagged
        ("You spent 1,250,000 ₫ on food and have 3,750,000 ₫ left.", [BUDGETS], []),
        ("Bạn đã chi 1.250.000 ₫ cho ăn uống, tức 25% ngân sách 5tr; còn lại 3,75tr.", [BUDGETS], []),
        ("Your three transactions total 2,545,000 ₫.", [TRANSACTIONS], []),
        ("Rent was 2.35tr, 2.2tr more than KFC.", [TRANSACTIONS], []),
        ("Transport used 85% of its 1tr budget; 15% remains.", [BUDGETS], []),
        ("Together both budgets are 6 triệu.", [BUDGETS], []),
        ("You spent $12.50 and 7.25 USD, $19.75 in all.", [USD], []),
        ("Bạn chi tổng cộng 2.545.000 ₫ trong 3 giao dịch, ngày 30/11/2026.", [TRANSACTIONS], []),
        # rounding to the stated precision
        ("Rent was about 2.4tr.", [TRANSACTIONS], []),
        # the user's own figure, repeated
        ("Saving 2tr a month gets you there.", ["I can save 2tr a month", {}], []),
        # a total the tools never gave, in either language: flagged
        ("You spent 2,600,000 ₫ this month.", [TRANSACTIONS], ["2,600,000 ₫"]),
        ("Tháng này bạn đã chi 3tr.", [TRANSACTIONS], ["3tr"]),
        ("Food took 40% of your budget.", [BUDGETS], ["40%"]),
        ("Bạn còn 12 triệu để chi tiêu.", [BUDGETS], ["12 triệu"]),
        ("You spent $20.00 in total.", [USD], ["$20.00"]),
        # with no tool at all, every figure is unsupported
        ("You usually spend 150k on lunch.", [], ["150k"]),
        # flagged once, in order
        ("3tr here, 9tr there, 3tr again", [TRANSACTIONS], ["3tr", "9tr"]),
        # no figures: nothing to check
        ("You have 3 goals; the next one is due on 2027-01-01.", [], []),
    ],
)
def test_it_flags_the_figures_no_tool_result_supports(reply, sources, unverified):
    assert unverified_figures(reply, sources) == unverified


def test_a_tool_error_or_an_id_does_not_make_a_total_true():
    error = {"error": {"code": "NOT_FOUND", "message": "No transaction 99."}}
    assert unverified_figures("I deleted the 99,000 ₫ transaction.", [error]) == ["99,000 ₫"]


def test_large_results_still_check_leaves_and_column_totals():
    rows = [{"id": i, "amount": str(1000 * i)} for i in range(1, 201)]
    total = sum(1000 * i for i in range(1, 201))
    assert unverified_figures(f"All told {total:,} ₫; the largest was 200,000 ₫.", [{"rows": rows}]) == []
    assert unverified_figures("All told 1,234,567 ₫.", [{"rows": rows}]) == ["1,234,567 ₫"]


def test_values_are_decimal():
    assert all(isinstance(f.value, Decimal) for f in extract_figures("1.25tr, $12.50, 30%"))

"""Every card the chat draws, as a Vietnamese reader sees it: each tool with a card is drawn for a `vi` reader
from an output of its documented shape, and every text a person reads on it (titles, labels, values, buttons)
must be free of English left untranslated and of figures or dates written the English way."""

import re

import pytest
from babel.messages.pofile import read_po
from django.conf import settings

from chat.tools import CATALOG, ToolOutcome, card_of
from tests import factories
from tests.chat.tools.helpers import call, ctx_for

TXN = {
    "id": 7,
    "occurred_on": "2026-11-29",
    "amount": "150000",
    "currency": "VND",
    "direction": "expense",
    "description": "Phở Thìn",
    "category": "dining",
    "source": "manual",
    "asset_id": None,
    "editable": True,
}
ASSET = {"id": 3, "name": "Ví MoMo", "kind": "e_wallet", "balance": "1250000", "currency": "VND", "editable": True}
ASKED = {"status": "confirmation_required", "approval_id": "5b0c9d4e-0000-4000-8000-000000000000",
         "expires_at": "2026-11-29T10:10:00+00:00"}  # fmt: skip
DRAFT = {
    "draft_id": 4,
    "amount": "2500000",
    "currency": "VND",
    "direction": "income",
    "occurred_at": "2026-11-29T14:32:00+07:00",
    "description": "Nguyễn Văn Minh chuyển tiền",
    "category": "other_income",
    "bank": "Vietcombank",
    "account_mask": "****1234",
    "parsed_by": "vcb",
}
DEBT = {"id": 2, "direction": "owed_to_me", "counterparty": "Minh", "outstanding": "500000", "total": "1000000",
        "currency": "VND", "status": "open", "overdue": False, "next_due": "2026-12-10", "code": "ZD2"}  # fmt: skip
BUDGET = {"id": 5, "category": "groceries", "amount": "3000000", "currency": "VND", "spent": "1234500"}
SERIES = {"id": 1, "merchant": "Netflix", "kind": "subscription", "interval": "monthly", "amount": "260000",
          "currency": "VND", "next_on": "2026-12-05", "status": "active", "monthly_cost": "260000",
          "yearly_cost": "3120000"}  # fmt: skip

# (tool, input, output): every tool that draws a card, each of its card's states.
CASES = [
    ("show_welcome_suggestions", {}, None),
    ("suggest_asset_creation", {}, None),
    ("show_quick_create_suggestion", {}, {"items": [{"kind": "cash", "name": "Tiền mặt"}]}),
    ("show_quick_form", {}, {"title": "Thêm chi tiêu", "intent": "create_transaction",
                             "fields": [{"name": "amount", "label": "Số tiền", "type": "text", "required": True}]}),
    ("show_goal_planning_form", {}, {"intent": "create_goal", "currency": "VND",
                                     "values": {"name": "Mua nhà", "kind": "house", "target_amount": "2000000000",
                                                "deadline": "2036-01-01"}}),
    ("show_smart_actions", {}, {"actions": [{"label": "Xem ngân sách", "prompt": "Xem ngân sách"}]}),
    ("summarize_spending", {}, {"period": "this_month", "since": "2026-11-01", "until": "2026-11-29",
                                "group_by": "category", "currency": "VND", "total": "15117000",
                                "groups": [{"label": "shopping", "amount": "7480000"},
                                           {"label": "housing", "amount": "6500000"}]}),
    ("list_recurring", {}, {"due_within_days": 7, "kind": "all", "status": "active", "series": [SERIES],
                            "totals": [{"currency": "VND", "monthly_cost": "260000", "yearly_cost": "3120000"}]}),
    ("list_recurring", {}, {"kind": "subscription", "series": [SERIES], "totals": []}),
    ("create_manual_transaction", {}, {"status": "asset_required",
                                       "pending": {"amount": "150k", "description": "Phở Thìn"}, "assets": [ASSET]}),
    ("create_manual_transaction", {}, {"status": "asset_required", "assets": [ASSET],
                                       "pending": {"amount": "2tr", "description": "Lương", "direction": "income"}}),
    ("create_manual_transaction", {}, {"created": True, "transaction": TXN}),
    ("update_manual_transaction", {}, {"updated": True, "transaction": TXN}),
    ("delete_manual_transaction", {}, {**ASKED, "transaction": TXN}),
    ("delete_manual_transaction", {}, {"deleted": True, "transaction": TXN}),
    ("delete_manual_transaction", {}, {"status": "rejected"}),
    ("create_manual_asset", {}, {"created": True, "asset": ASSET}),
    ("update_manual_asset", {}, {"updated": True, "asset": ASSET}),
    ("delete_manual_asset", {}, {**ASKED, "asset": ASSET}),
    ("delete_manual_asset", {}, {"status": "rejected"}),
    ("create_goal", {}, {"goal": {"id": 1, "name": "Quỹ khẩn cấp", "kind": "emergency_fund", "currency": "VND",
                                  "target_amount": "60000000", "deadline": "2027-12-31",
                                  "monthly_needed": "3250000"}}),
    ("read_bank_text", {}, {"draft": DRAFT}),
    ("read_bank_text", {}, {"draft": {**DRAFT, "duplicate_of": 9}}),
    ("decide_bank_text_draft", {}, {"discarded": True}),
    ("decide_bank_text_draft", {}, {"created": True, "transaction": TXN}),
    ("create_rule", {}, {"rule": {"id": 1, "match": "grab", "category": "transport"}, "applied": 12}),
    ("get_plan", {}, {"plan": None}),
    ("get_plan", {}, {"plan": {"id": 1, "month": "2026-12", "currency": "VND", "safe_to_spend_today": "660000",
                               "daily_guide": "700000", "days_left": 28, "warning": "spend_pace",
                               "bills_still_due": "1219000"}}),
    ("get_cash_forecast", {}, {"accounts": []}),
    ("get_cash_forecast", {}, {"accounts": [1], "currency": "VND", "start_balance": "42500000",
                               "lowest": "1000000", "cushion": "2000000", "shortfall": False,
                               "balances": [{"date": "2026-12-04", "balance": "42500000"}],
                               "events": [{"date": "2026-12-05", "kind": "bill", "label": "Netflix",
                                           "amount": "260000"}]}),
    ("list_debts", {}, {"direction": "owed_to_me", "debts": [DEBT], "totals": []}),
    ("list_debts", {}, {"debts": [DEBT], "totals": []}),
    ("create_debt", {}, {"created": True, "debt": DEBT}),
    ("record_debt_payment", {}, {"debt": DEBT}),
    ("get_debt_vietqr", {}, {"counterparty": "Minh", "debt_id": 2, "payload": "000201…", "code": "ZD2",
                             "amount": "500000", "currency": "VND", "account": ASSET}),
    ("create_budget", {}, {"created": True, "budget": BUDGET}),
    ("update_budget", {}, {"updated": True, "budget": BUDGET}),
    ("delete_budget", {}, {**ASKED, "budget": BUDGET}),
    ("delete_budget", {}, {"status": "rejected"}),
]  # fmt: skip

# The texts on a card that a person reads; the rest are codes, ids and raw amounts the page formats itself.
READ = {"title", "message", "label", "value", "confirm_label", "reject_label", "warning_title", "balance_display",
        "kind_label", "interval_label", "period_label", "description"}  # fmt: skip
FOREIGN_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+\.\d+\s?%|\b\d{4}-\d{2}-\d{2}\b|₫\d")
ENGLISH_WORDS = re.compile(
    r"\b(the|this|was|from|into|created|updated|deleted|recorded|spending|month|days?|plan|budget|asset|"
    r"transaction|goal|delete|kept|due|your|who|what|which|cancel|amount|category|name|kind|balance|date|"
    r"dining|shopping|housing|groceries|transport|expense|income|monthly|subscription|e-wallet|cash)\b",
    re.IGNORECASE,
)


def english_ids() -> set[str]:
    """The source texts whose Vietnamese differs: seen on a Vietnamese card, they were left untranslated."""
    with open(settings.BASE_DIR / "locale/vi/LC_MESSAGES/django.po", "rb") as f:
        catalog = read_po(f, locale="vi")
    return {m.id for m in catalog if isinstance(m.id, str) and m.string and m.string != m.id}


def read_texts(node, key=None):
    if isinstance(node, dict):
        for k, v in node.items():
            if not (k == "value" and "type" in node):  # a form field's value is an input's, in ISO form
                yield from read_texts(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from read_texts(v, key)
    elif isinstance(node, str) and key in READ:
        yield node


def test_every_tool_with_a_card_has_a_vietnamese_case():
    assert {name for name, tool in CATALOG.items() if tool.card} == {tool for tool, _i, _o in CASES}


@pytest.mark.parametrize(("tool", "tool_input", "output"), CASES, ids=[c[0] for c in CASES])
def test_a_vietnamese_card_reads_no_english_and_no_foreign_figure(tool, tool_input, output, vi_output):
    output = vi_output(tool) if output is None else output
    card = card_of(ToolOutcome(output=output, is_error=False, tool=tool, tool_input=tool_input), language="vi")
    assert card is not None
    texts = list(read_texts(card))
    assert texts, "a card with nothing to read"
    english = english_ids()
    left = [t for t in texts if t in english or ENGLISH_WORDS.search(t) or FOREIGN_NUMBER.search(t)]
    assert left == []


def test_the_same_card_reads_english_for_an_english_reader():
    created = {"created": True, "transaction": TXN}
    outcome = ToolOutcome(output=created, is_error=False, tool="create_manual_transaction", tool_input={})
    vi, en = card_of(outcome, language="vi"), card_of(outcome, language="en")
    assert vi["title"] == "Đã tạo giao dịch" and en["title"] == "Transaction created"
    assert {"label": "Số tiền", "value": "150.000\xa0₫"} in vi["items"]
    assert {"label": "Amount", "value": "₫150,000"} in en["items"]
    assert {"label": "Danh mục", "value": "Ăn uống"} in vi["items"]


@pytest.fixture
def vi_output(transactional_db):
    """The outputs the UI tools make themselves (their starter prompts and asset names), for a `vi` reader."""
    ctx = ctx_for(factories.user("lan", language="vi"))

    def output(tool):
        return call(ctx, tool, {}).output

    return output

from decimal import Decimal

from chat.selectors import message_page, thread_list
from demo.seed import seed_demo
from zeus.money import format_amount


def test_the_demo_user_has_one_past_conversation_with_real_tool_parts_and_cards(db):
    ctx = seed_demo()
    threads = list(thread_list(user=ctx.user))
    assert len(threads) == 1
    messages = message_page(thread=threads[0], limit=50).messages
    assert [m.role for m in messages] == ["user", "assistant", "user", "assistant"]

    spending = messages[1].parts
    tool = next(p for p in spending if p["type"] == "tool")
    assert tool["name"] == "summarize_spending" and not tool["is_error"]
    chart = next(p["spec"] for p in spending if p["type"] == "spec")
    assert chart["kind"] == "chart" and chart["version"] == 1
    food = sum(Decimal(g["amount"]) for g in tool["output"]["groups"] if g["label"] in ("dining", "groceries"))
    text = next(p["text"] for p in spending if p["type"] == "text")
    assert format_amount(food, "VND", locale="vi") in text

    coaching = messages[3].parts
    kinds = [p["spec"]["kind"] for p in coaching if p["type"] == "spec"]
    assert "smart_actions" in kinds
    assert "Quỹ khẩn cấp" in next(p["text"] for p in coaching if p["type"] == "text")


def test_a_second_seed_adds_no_second_conversation(db):
    first = seed_demo()
    again = seed_demo()
    assert again.added["demo conversations"] == 0
    assert thread_list(user=first.user).count() == 1

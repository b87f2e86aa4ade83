"""One past conversation for the demo user, so a newcomer without a model key sees what Zeus does.

The tool outputs and cards are the real ones, computed by the catalog's own read tools over the demo ledger
and drawn by chat.cards; only the assistant's sentences are written here, from those outputs.
"""

import datetime as dt
import uuid
from decimal import Decimal

from chat.selectors import thread_list
from chat.services import assistant_message_create, thread_create, user_message_record
from chat.tools import ToolContext, card_for, tool_context
from chat.tools.reads import list_goals, summarize_spending
from chat.tools.ui import show_smart_actions
from zeus.money import format_amount

FOOD = ("dining", "groceries")


def seed_conversation(ctx) -> None:
    if thread_list(user=ctx.user).exists():
        return
    thread = thread_create(user=ctx.user)
    tools = tool_context(ctx.user, thread_id=thread.id, today=ctx.today)
    _turn(thread, "What did I spend on food this month?", *_food_reply(tools))
    _turn(thread, "How is my emergency fund going?", *_goal_reply(tools))
    ctx.added["demo conversations"] += 1


def _turn(thread, question: str, parts: list[dict], workflow: str) -> None:
    user_message_record(thread=thread, client_id=f"demo-{uuid.uuid4()}", text=question)
    metadata = {
        "workflow": workflow,
        "model": "demo",
        "usage": {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0},
        "duration_ms": 0,
        "demo": True,
    }
    assistant_message_create(thread_id=thread.id, parts=parts, metadata=metadata)


def _tool_parts(name: str, tool_input: dict, output: dict) -> list[dict]:
    parts = [
        {
            "type": "tool",
            "name": name,
            "call_id": f"toolu_demo_{uuid.uuid4().hex[:20]}",
            "input": tool_input,
            "output": output,
            "is_error": False,
        }
    ]
    card = card_for(name, tool_input, output, False)
    if card is not None:
        parts.append({"type": "spec", "spec": card})
    return parts


def _food_reply(tools: ToolContext) -> tuple[list[dict], str]:
    args = {"period": "this_month", "group_by": "category"}
    output = summarize_spending(tools, args)
    currency = output["currency"]
    food = {g["label"]: g["amount"] for g in output["groups"] if g["label"] in FOOD}
    lines = [
        f"- **{label.capitalize()}**: {format_amount(Decimal(amount), currency)}" for label, amount in food.items()
    ]
    food_total = sum((Decimal(a) for a in food.values()), Decimal("0"))
    text = (
        f"Since {dt.date.fromisoformat(output['since']):%-d %B} you have spent "
        f"**{format_amount(food_total, currency)}** on food:\n\n" + "\n".join(lines or ["- nothing yet"]) + "\n\n"
        f"That is part of {format_amount(Decimal(output['total']), currency)} of spending this month; "
        "the chart shows every category."
    )
    return [*_tool_parts("summarize_spending", args, output), {"type": "text", "text": text}], "inspect"


def _goal_reply(tools: ToolContext) -> tuple[list[dict], str]:
    args = {"status": "active"}
    output = list_goals(tools, args)
    fund = next((g for g in output["goals"] if g["kind"] == "emergency_fund"), None)
    parts = _tool_parts("list_goals", args, output)
    if fund is None:
        text = "You have no emergency fund yet. Shall we set one up?"
    else:
        currency = fund["currency"]
        text = (
            f"**{fund['name']}** is at {fund['progress_pct']} %: "
            f"{format_amount(Decimal(fund['current_amount']), currency)} of "
            f"{format_amount(Decimal(fund['target_amount']), currency)}. To reach it by {fund['deadline']} put aside "
            f"about **{format_amount(Decimal(fund['monthly_needed']), currency)} a month**"
            + (" — you are on track." if fund["on_track"] else " — a little behind for now.")
        )
    parts.append({"type": "text", "text": text})
    actions = {
        "actions": [
            {"label": "Log an expense", "prompt": "KFC 150k"},
            {"label": "Plan this month", "prompt": "Help me plan my spending for this month"},
            {"label": "Show last month", "prompt": "What did I spend last month, by week?"},
        ]
    }
    parts += _tool_parts("show_smart_actions", actions, show_smart_actions(tools, actions))
    return parts, "coach"

"""One past conversation for the demo user, so a newcomer without a model key sees what Zeus does.

The tool outputs and cards are the real ones, computed by the catalog's own read tools over the demo ledger
and drawn by chat.cards; only the assistant's sentences are written here, from those outputs, in the demo
profile's language (the seed runs under it). The conversation ends on an answer, never on a question.
"""

import datetime as dt
import uuid
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _

from assets.labels import category_label
from chat.selectors import thread_list
from chat.services import assistant_message_create, thread_create, user_message_record
from chat.tools import ToolContext, ToolOutcome, card_of, tool_context
from chat.tools.reads import list_goals, summarize_spending
from chat.tools.ui import show_smart_actions
from zeus.formatting import date_text, percent
from zeus.money import format_amount


def _money(amount, currency: str) -> str:
    return format_amount(Decimal(amount), currency, locale=translation.get_language())


FOOD = ("dining", "groceries")


def seed_conversation(ctx) -> None:
    if thread_list(user=ctx.user).exists():
        return
    thread = thread_create(user=ctx.user)
    tools = tool_context(ctx.user, thread_id=thread.id, today=ctx.today)
    _turn(thread, _("What did I spend on food this month?"), *_food_reply(tools))
    _turn(thread, _("How is my emergency fund going?"), *_goal_reply(tools))
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
    outcome = ToolOutcome(output=output, is_error=False, tool=name, tool_input=tool_input)
    card = card_of(outcome, language=translation.get_language())
    if card is not None:
        parts.append({"type": "spec", "spec": card})
    return parts


def _food_reply(tools: ToolContext) -> tuple[list[dict], str]:
    args = {"period": "this_month", "group_by": "category"}
    output = summarize_spending(tools, args)
    currency = output["currency"]
    food = {g["label"]: g["amount"] for g in output["groups"] if g["label"] in FOOD}
    lines = [f"- **{category_label(label)}**: {_money(amount, currency)}" for label, amount in food.items()]
    food_total = sum((Decimal(a) for a in food.values()), Decimal("0"))
    words = {
        "since": date_text(dt.date.fromisoformat(output["since"])),
        "food": _money(food_total, currency),
        "total": _money(output["total"], currency),
    }
    text = (
        _("Since %(since)s you have spent **%(food)s** on food:") % words
        + "\n\n"
        + "\n".join(lines or ["- " + _("nothing yet")])
        + "\n\n"
        + _("That is part of %(total)s of spending this month; the chart shows every category.") % words
    )
    return [*_tool_parts("summarize_spending", args, output), {"type": "text", "text": text}], "inspect"


def _goal_reply(tools: ToolContext) -> tuple[list[dict], str]:
    args = {"status": "active"}
    output = list_goals(tools, args)
    fund = next((g for g in output["goals"] if g["kind"] == "emergency_fund"), None)
    parts = _tool_parts("list_goals", args, output)
    if fund is None:
        text = _("You have no emergency fund yet: ask me to plan one and I will work out the monthly amount.")
    else:
        currency = fund["currency"]
        words = {
            "name": fund["name"],
            "pct": percent(fund["progress_pct"], digits=0),
            "current": _money(fund["current_amount"], currency),
            "target": _money(fund["target_amount"], currency),
            "deadline": date_text(dt.date.fromisoformat(fund["deadline"])),
            "monthly": _money(fund["monthly_needed"], currency),
        }
        text = _(
            "**%(name)s** is at %(pct)s: %(current)s of %(target)s. To reach it by %(deadline)s put aside about "
            "**%(monthly)s a month**"
        ) % words + (_(" — you are on track.") if fund["on_track"] else _(" — a little behind for now."))
    parts.append({"type": "text", "text": text})
    actions = {
        "actions": [
            {"label": _("Log an expense"), "prompt": "KFC 150k"},
            {"label": _("Plan this month"), "prompt": _("Help me plan my spending for this month")},
            {"label": _("Show last month"), "prompt": _("What did I spend last month, by week?")},
        ]
    }
    # The follow-up choices come before the last sentence: the conversation ends on the answer.
    parts[-1:-1] = _tool_parts("show_smart_actions", actions, show_smart_actions(tools, actions))
    return parts, "coach"

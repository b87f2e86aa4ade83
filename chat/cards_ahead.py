"""Cards of the looking-ahead tools (chat/tools/ahead.py): `plan`, `forecast`, `debt`, `vietqr`, and the
budget's result summary. Built by this code from a tool's output, never by the model (docs/contract/cards.md)."""

import datetime as dt

from babel.dates import format_date
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assets.vietqr import drawing
from chat.card_text import amount_text, category_text, day_text
from chat.cards import VERSION, delete_confirm_card

WARNING_TITLES = {
    "on_track": gettext_lazy("On track"),
    "spend_pace": gettext_lazy("Spending faster than planned"),
    "overspent": gettext_lazy("Over the safe-to-spend money"),
    "goal_drift": gettext_lazy("Behind on the goal"),
}


def _month_text(month: str) -> str:
    """ "2026-12" as its reader says a month: "tháng 12 năm 2026", "December 2026"."""
    try:
        first = dt.date.fromisoformat(f"{month}-01")
    except ValueError:
        return month
    return format_date(first, "LLLL y", locale=(translation.get_language() or "vi").replace("-", "_"))


def _card(kind: str, **body) -> dict:
    return {"kind": kind, "version": VERSION, **body}


def plan(name, tool_input, output):
    p = output.get("plan")
    if p is None:
        return _card("plan", plan=None, title=_("No plan this month"), cta_url="/plans")
    return _card(
        "plan",
        title=_("Plan for %(month)s") % {"month": _month_text(p["month"])},
        plan_id=p["id"],
        month=p["month"],
        currency=p["currency"],
        safe_to_spend_today=p["safe_to_spend_today"],
        daily_guide=p["daily_guide"],
        days_left=p["days_left"],
        warning=p["warning"],
        warning_title=str(WARNING_TITLES.get(p["warning"], p["warning"])),
        bills_still_due=p["bills_still_due"],
        converted=p.get("converted", []),
        rate_missing=p.get("rate_missing", []),
        cta_url=f"/plans/{p['id']}",
    )


def forecast(name, tool_input, output):
    if not output.get("accounts"):
        return _card(
            "forecast", empty=True, title=_("Nothing to project yet"), cta_url="/wallets", series=[], events=[]
        )
    return _card(
        "forecast",
        chart="line",
        title=_("Spendable money, the days ahead"),
        currency=output["currency"],
        start_balance=output["start_balance"],
        lowest=output["lowest"],
        cushion=output["cushion"],
        shortfall=output["shortfall"],
        series=[{"label": day_text(b["date"]), "key": b["date"], "amount": b["balance"]} for b in output["balances"]],
        events=[{k: e[k] for k in ("date", "kind", "label", "amount")} for e in output["events"]],
    )


def _debt_item(d: dict) -> dict:
    return {
        "id": d["id"],
        "direction": d["direction"],
        "counterparty": d["counterparty"],
        "outstanding": d["outstanding"],
        "total": d["total"],
        "currency": d["currency"],
        "status": d["status"],
        "overdue": d["overdue"],
        "next_due": d["next_due"],
        "schedule": d.get("schedule", []),
        "code": d["code"],
    }


def debts(name, tool_input, output):
    titles = {"owed_to_me": _("Who owes you"), "i_owe": _("What you owe")}
    owed = titles.get(output.get("direction"), _("Debts and IOUs"))
    return _card(
        "debt",
        title=owed,
        items=[_debt_item(d) for d in output["debts"]],
        totals=output["totals"],
        cards=[
            {k: c[k] for k in ("account", "name", "currency", "amount_due", "due_on", "overdue")}
            for c in output.get("cards", [])
        ],
    )


def debt(name, tool_input, output):
    record = output["debt"]
    status = "created" if output.get("created") else "updated"
    title = _("Debt recorded") if output.get("created") else _("Payment recorded")
    return _card("debt", title=title, status=status, items=[_debt_item(record)], totals=[], cta_url="/debts")


def vietqr(name, tool_input, output):
    return _card(
        "vietqr",
        title=_("VietQR for %(name)s") % {"name": output["counterparty"]},
        debt_id=output["debt_id"],
        counterparty=output["counterparty"],
        payload=output["payload"],
        # Drawn here from the payload Zeus itself encoded (segno's SVG, no text from the model); the page shows it
        # as an <img>, where no script in it could run.
        svg=drawing.svg(output["payload"]),
        code=output["code"],
        amount=output["amount"],
        currency=output["currency"],
        account=output["account"],
    )


def budget(name, tool_input, output):
    if output.get("status") == "confirmation_required":
        return delete_confirm_card(name, output)
    if output.get("status") == "rejected":
        return _card(
            "result_summary", tool=name, status="cancelled", title=_("Kept the budget."), record=None, items=[]
        )
    b = output["budget"]
    status = next((s for s in ("created", "updated", "deleted") if output.get(s)), None)
    if status is None:
        return None
    items = [
        {"label": _("Category"), "value": category_text(b["category"])},
        {"label": _("Monthly limit"), "value": amount_text(b["amount"], b["currency"])},
        {"label": _("Spent this month"), "value": amount_text(b["spent"], b["currency"])},
    ]
    titles = {"created": _("Budget created"), "updated": _("Budget updated"), "deleted": _("Budget deleted")}
    return _card(
        "result_summary",
        tool=name,
        status=status,
        title=titles[status],
        record={"type": "budget", "id": b["id"]},
        items=items,
    )

"""Cards of the looking-ahead tools (chat/tools/ahead.py): `plan`, `forecast`, `debt`, `vietqr`, and the
budget's result summary. Built by this code from a tool's output, never by the model (docs/contract/cards.md)."""

from assets.vietqr import drawing
from chat.cards import VERSION, delete_confirm_card

WARNING_TITLES = {
    "on_track": "On track",
    "spend_pace": "Spending faster than planned",
    "overspent": "Over the safe-to-spend money",
    "goal_drift": "Behind on the goal",
}


def _card(kind: str, **body) -> dict:
    return {"kind": kind, "version": VERSION, **body}


def plan(name, tool_input, output):
    p = output.get("plan")
    if p is None:
        return _card("plan", plan=None, title="No plan this month", cta_url="/plans")
    return _card(
        "plan",
        title=f"Plan for {p['month']}",
        plan_id=p["id"],
        month=p["month"],
        currency=p["currency"],
        safe_to_spend_today=p["safe_to_spend_today"],
        daily_guide=p["daily_guide"],
        days_left=p["days_left"],
        warning=p["warning"],
        warning_title=WARNING_TITLES.get(p["warning"], p["warning"]),
        bills_still_due=p["bills_still_due"],
        converted=p.get("converted", []),
        rate_missing=p.get("rate_missing", []),
        cta_url=f"/plans/{p['id']}",
    )


def forecast(name, tool_input, output):
    if not output.get("accounts"):
        return _card("forecast", empty=True, title="Nothing to project yet", cta_url="/wallets", series=[], events=[])
    return _card(
        "forecast",
        chart="line",
        title="Spendable money, the days ahead",
        currency=output["currency"],
        start_balance=output["start_balance"],
        lowest=output["lowest"],
        cushion=output["cushion"],
        shortfall=output["shortfall"],
        series=[{"label": b["date"], "key": b["date"], "amount": b["balance"]} for b in output["balances"]],
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
    owed = {"owed_to_me": "Who owes you", "i_owe": "What you owe"}.get(output.get("direction"), "Debts and IOUs")
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
    title = "Debt recorded" if output.get("created") else "Payment recorded"
    return _card("debt", title=title, status=status, items=[_debt_item(record)], totals=[], cta_url="/debts")


def vietqr(name, tool_input, output):
    return _card(
        "vietqr",
        title=f"VietQR for {output['counterparty']}",
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
        return _card("result_summary", tool=name, status="cancelled", title="Kept the budget.", record=None, items=[])
    b = output["budget"]
    status = next((s for s in ("created", "updated", "deleted") if output.get(s)), None)
    if status is None:
        return None
    items = [
        {"label": "Category", "value": b["category"].replace("_", " ").capitalize()},
        {"label": "Monthly limit", "value": f"{b['amount']} {b['currency']}"},
        {"label": "Spent this month", "value": f"{b['spent']} {b['currency']}"},
    ]
    return _card(
        "result_summary",
        tool=name,
        status=status,
        title=f"Budget {status}",
        record={"type": "budget", "id": b["id"]},
        items=items,
    )

"""Cards (docs/contract/cards.md): `{"kind", "version": 1, ...}` built by this code from a tool's name, its validated
input and its output. The model authors no card; the only model text that reaches one is what a UI tool's
strict schema let through (labels, prompts, form fields).

Each card names the `event` its clicks send back as a `ui_event` frame.
"""

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from assets.labels import DIRECTION
from chat.card_text import (
    INTERVAL,
    KEPT,
    PERIOD_TITLES,
    RECORD_TITLES,
    SERIES_KIND,
    SPENDING_BY,
    amount_text,
    asset_kind_text,
    category_text,
    day_text,
    goal_kind_text,
    moment_text,
)
from chat.kinds import GOAL_KINDS
from zeus.errors import ValidationFailed
from zeus.money import parse_amount, quantize

VERSION = 1


def _card(kind: str, **body) -> dict:
    return {"kind": kind, "version": VERSION, **body}


def _pending_amount(value) -> tuple[Decimal | None, str | None]:
    """The pending call's amount as typed ("150k") → (150000, currency the text named); the page shows
    card amounts as decimal strings, so the shorthand is read here, as the tool will read it."""
    try:
        parsed = parse_amount(value)
    except ValidationFailed:
        return None, None
    return parsed.amount, parsed.currency


def _decimal_text(amount: Decimal, currency: str) -> str:
    try:
        return str(quantize(amount, currency))
    except (KeyError, ValueError, ValidationFailed):
        return str(amount)


def welcome(name, tool_input, output):
    return _card("welcome", title=_("What would you like to do?"), event="action_selected", prompts=output["prompts"])


def asset_suggestions(name, tool_input, output):
    options = output["options"]
    return _card(
        "asset_suggestions",
        title=_("Add your first asset"),
        event="quick_create_selected",
        options=[{**o, "label": o["name"], "description": asset_kind_text(o.get("kind", ""))} for o in options],
    )


def quick_create(name, tool_input, output):
    items = [{**i, "description": asset_kind_text(i.get("kind", ""))} for i in output["items"]]
    return _card("quick_create", title=_("Create an asset"), event="quick_create_selected", items=items)


def quick_form(name, tool_input, output):
    return _card(
        "quick_form", title=output["title"], intent=output["intent"], event="form_submit", fields=output["fields"]
    )


def goal_form(name, tool_input, output):
    values = output["values"]
    fields = [
        {"name": "name", "label": _("Goal name"), "type": "text", "required": True, "value": values["name"]},
        {
            "name": "kind",
            "label": _("Kind"),
            "type": "select",
            "options": [{"value": k, "label": goal_kind_text(k)} for k in GOAL_KINDS],
            "required": True,
            "value": values["kind"],
        },
        {
            "name": "target_amount",
            "label": _("Target amount (%(currency)s)") % {"currency": output["currency"]},
            "type": "text",
            "required": True,
            "value": values["target_amount"],
        },
        {"name": "deadline", "label": _("Deadline"), "type": "date", "required": True, "value": values["deadline"]},
        {
            "name": "current_amount",
            "label": _("Already saved (%(currency)s)") % {"currency": output["currency"]},
            "type": "text",
            "required": False,
            "value": "",
        },
    ]
    return _card(
        "goal_form",
        title=_("Plan your goal"),
        intent="create_goal",
        event="form_submit",
        currency=output["currency"],
        fields=fields,
    )


def smart_actions(name, tool_input, output):
    return _card("smart_actions", event="action_selected", actions=output["actions"])


def chart(name, tool_input, output):
    currency = output["currency"]
    by_category = output["group_by"] == "category"
    return _card(
        "chart",
        chart="line" if output["group_by"] == "day" else "bar",
        title=str(SPENDING_BY.get(output["group_by"], SPENDING_BY["category"]))
        % {"period": PERIOD_TITLES[output["period"]]},
        period=output["period"],
        period_label=str(PERIOD_TITLES[output["period"]]),
        group_by=output["group_by"],
        since=output["since"],
        until=output["until"],
        currency=currency,
        total=output["total"],
        series=[
            {
                "label": category_text(g["label"]) if by_category else g["label"],
                "key": g["label"],
                "amount": g["amount"],
            }
            for g in output["groups"]
        ],
        converted=output.get("converted", []),
        rate_missing=output.get("rate_missing", []),
    )


def recurring(name, tool_input, output):
    """What is due and what it costs: each series with its next date and its monthly and yearly cost, and
    the totals of what goes out."""
    due = output.get("due_within_days")
    kind = output.get("kind", "all")
    if due is not None:
        title = (
            _("Due today")
            if due == 0
            else ngettext("Due tomorrow", "Due in the next %(days)s days", due) % {"days": due}
        )
    else:
        titles = {"subscription": _("Your subscriptions"), "bill": _("Your bills"), "income": _("Your regular income")}
        title = titles.get(kind, _("Your recurring payments"))
    return _card(
        "recurring",
        title=title,
        status=output.get("status", "active"),
        series_kind=kind,
        due_within_days=due,
        items=[
            {
                "id": s["id"],
                "merchant": s["merchant"],
                "kind": s["kind"],
                "interval": s["interval"],
                "interval_label": str(INTERVAL.get(s["interval"], s["interval"])),
                "kind_label": str(SERIES_KIND.get(s["kind"], s["kind"])),
                "amount": s["amount"],
                "currency": s["currency"],
                "next_on": s["next_on"],
                "status": s["status"],
                "monthly_cost": s["monthly_cost"],
                "yearly_cost": s["yearly_cost"],
            }
            for s in output["series"]
        ],
        totals=output.get("totals", []),
    )


def _transaction_items(txn: dict) -> list[dict]:
    return [
        {"label": _("Description"), "value": txn["description"] or "—"},
        {"label": _("Amount"), "value": amount_text(txn["amount"], txn["currency"])},
        {"label": _("Type"), "value": str(DIRECTION.get(txn["direction"], txn["direction"]))},
        {"label": _("Category"), "value": category_text(txn["category"])},
        {"label": _("Date"), "value": day_text(txn["occurred_on"])},
    ]


def _asset_items(asset: dict) -> list[dict]:
    return [
        {"label": _("Name"), "value": asset["name"]},
        {"label": _("Kind"), "value": asset_kind_text(asset["kind"])},
        {"label": _("Balance"), "value": amount_text(asset["balance"], asset["currency"])},
    ]


def _summary(name: str, status: str, title: str, record: dict | None, items: list[dict]) -> dict:
    return _card("result_summary", tool=name, status=status, title=title, record=record, items=items)


def transaction(name, tool_input, output):
    if output.get("status") == "asset_required":
        pending = output["pending"]
        amount, named = _pending_amount(pending["amount"])
        currency = pending.get("currency") or named or (output["assets"][0]["currency"] if output["assets"] else "")
        into = pending.get("direction") == "income"
        return _card(
            "asset_selector",
            title=_("Which asset was this paid into?") if into else _("Which asset was this paid from?"),
            event="existing_asset_selected",
            pending={
                "description": pending.get("description", ""),
                "amount": _decimal_text(amount, currency) if amount is not None else str(pending["amount"]),
                "currency": currency,
            },
            assets=[
                {k: a[k] for k in ("id", "name", "kind", "balance", "currency")}
                | {
                    "balance_display": amount_text(a["balance"], a["currency"]),
                    "kind_label": asset_kind_text(a["kind"]),
                }
                for a in output["assets"]
            ],
        )
    if output.get("status") == "confirmation_required":
        return _confirm(name, output)
    return _record_summary(name, output, "transaction", output.get("transaction"), _transaction_items)


def asset(name, tool_input, output):
    if output.get("status") == "confirmation_required":
        return _confirm(name, output)
    return _record_summary(name, output, "asset", output.get("asset"), _asset_items)


def _record_summary(name, output, noun, record, items):
    if output.get("status") == "rejected":
        return _summary(name, "cancelled", str(KEPT[noun]), None, [])
    for status in ("created", "updated", "deleted"):
        if output.get(status):
            ref = {"type": noun, "id": record["id"]}
            return _summary(name, status, str(RECORD_TITLES[(noun, status)]), ref, items(record))
    return None


def _describe_transaction(txn: dict) -> str:
    what = txn["description"] or category_text(txn["category"])
    words = {"what": what, "amount": amount_text(txn["amount"], txn["currency"]), "day": day_text(txn["occurred_on"])}
    return _("%(what)s: %(amount)s on %(day)s") % words


def delete_question(output: dict) -> tuple[str, str]:
    """What a pending delete asks, as (title, message): the confirm card shows it, MCP returns it as the
    summary of a confirmation_required result."""
    if "transaction" in output:
        title, detail = _("Delete this transaction?"), _describe_transaction(output["transaction"])
    elif "budget" in output:
        budget = output["budget"]
        title = _("Delete this budget?")
        amount = amount_text(budget["amount"], budget["currency"])
        words = {"category": category_text(budget["category"]), "amount": amount}
        detail = _("%(category)s: %(amount)s a month") % words
    else:
        asset = output["asset"]
        title = _("Delete this asset?")
        balance = amount_text(asset["balance"], asset["currency"])
        detail = f"{asset['name']} ({asset_kind_text(asset['kind'])}, {balance})"
    return title, _("%(detail)s. This cannot be undone.") % {"detail": detail}


def delete_confirm_card(name, output):
    """The confirm card of a pending delete (chat.cards_ahead's budgets use it too)."""
    return _confirm(name, output)


def _confirm(name, output):
    title, message = delete_question(output)
    return _card(
        "confirm",
        tool=name,
        approval_id=output["approval_id"],
        expires_at=output["expires_at"],
        title=title,
        message=message,
        confirm_label=_("Delete"),
        reject_label=_("Cancel"),
        event="confirm",
    )


def goal(name, tool_input, output):
    goal = output["goal"]
    items = [
        {"label": _("Name"), "value": goal["name"]},
        {"label": _("Kind"), "value": goal_kind_text(goal["kind"])},
        {"label": _("Target"), "value": amount_text(goal["target_amount"], goal["currency"])},
        {"label": _("Deadline"), "value": day_text(goal["deadline"])},
        {"label": _("Monthly needed"), "value": amount_text(goal["monthly_needed"], goal["currency"])},
    ]
    return _summary(name, "created", _("Goal created"), {"type": "goal", "id": goal["id"]}, items)


def transaction_draft(name, tool_input, output):
    """A bank text read into a draft: what it says, where it goes, and Save / Discard (`draft_decision`).
    When the ledger already holds the payment (a feed or statement row), `duplicate_of` names it and the
    card offers only to discard."""
    draft = output["draft"]
    items = [
        {"label": _("Amount"), "value": amount_text(draft["amount"], draft["currency"])},
        {"label": _("Type"), "value": str(DIRECTION.get(draft["direction"], draft["direction"]))},
        {"label": _("When"), "value": moment_text(draft["occurred_at"])},
        {"label": _("Description"), "value": draft["description"] or "—"},
        {"label": _("Category"), "value": category_text(draft["category"])},
    ]
    if draft["parsed_by"] == "vietqr":
        # A pasted VietQR: the account it pays into, not one of the user's.
        items.append({"label": _("To"), "value": f"{draft['bank']} {draft['account_mask']}"})
    else:
        if draft.get("bank"):
            items.append({"label": _("Bank"), "value": draft["bank"]})
        if draft.get("account_mask"):
            items.append({"label": _("Account"), "value": draft["account_mask"]})
    return _card(
        "transaction_draft",
        draft_id=draft["draft_id"],
        event="draft_decision",
        title=_("Already in your ledger") if draft.get("duplicate_of") else _("Save this transaction?"),
        amount=draft["amount"],
        currency=draft["currency"],
        direction=draft["direction"],
        date=draft["occurred_at"][:10],
        occurred_at=draft["occurred_at"],
        description=draft["description"],
        category=draft["category"],
        bank=draft.get("bank"),
        account_mask=draft.get("account_mask"),
        asset_id=draft.get("asset_id"),
        linked_account_id=draft.get("linked_account_id"),
        duplicate_of=draft.get("duplicate_of"),
        parsed_by=draft["parsed_by"],
        items=items,
        decisions=["discard"] if draft.get("duplicate_of") else ["save", "discard"],
    )


def draft_decided(name, tool_input, output):
    if output.get("discarded"):
        return _summary(name, "cancelled", _("Draft discarded; nothing was saved."), None, [])
    return transaction(name, tool_input, output)


def rule(name, tool_input, output):
    record = output["rule"]
    applied = output.get("applied", 0)
    applied_text = ngettext("%(count)s existing transaction", "%(count)s existing transactions", applied) % {
        "count": applied
    }
    items = [
        {"label": _("Text"), "value": record["match"]},
        {"label": _("Category"), "value": category_text(record["category"])},
        {"label": _("Applied to"), "value": applied_text},
    ]
    return _summary(name, "created", _("Rule created"), {"type": "rule", "id": record["id"]}, items)

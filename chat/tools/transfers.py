"""The assistant's transfers (CONTRACT §9.3): listing the user's transfers and suggestions, and marking rows
as a transfer or answering a suggestion, through the ledger's own services, exactly as the pages and the REST
do (docs/ledger.md). A transfer counts nowhere: the tools say so, the totals already leave it out."""

from assets.ledger.selectors import transfer_list
from assets.ledger.transfers import transfer_create, transfer_suggestion_accept, transfer_suggestion_reject
from chat.tools.base import ID, MUTATION, READ, BadToolInput, Tool, ToolContext, money, schema

LIMIT = 50


def _side(txn) -> dict | None:
    if txn is None:
        return None
    return {
        "id": txn.id,
        "occurred_on": txn.occurred_on.isoformat(),
        "amount": money(txn.amount, txn.currency),
        "currency": txn.currency,
        "description": txn.description,
        "asset_id": txn.asset_id,
    }


def transfer_out(transfer) -> dict:
    return {
        "id": transfer.id,
        "status": transfer.status,
        "outgoing": _side(transfer.outgoing),
        "incoming": _side(transfer.incoming),
    }


def list_transfers(ctx: ToolContext, args: dict) -> dict:
    status = args.get("status", "paired")
    rows = list(transfer_list(user=ctx.user, status=status).order_by("-id")[: LIMIT + 1])
    return {
        "status": status,
        "transfers": [transfer_out(t) for t in rows[:LIMIT]],
        "count": min(len(rows), LIMIT),
        "has_more": len(rows) > LIMIT,
    }


def mark_transfer(ctx: ToolContext, args: dict) -> dict:
    """Either both (or one) of `outgoing_id`/`incoming_id`: those rows become a transfer; or `transfer_id`
    with `decision`: a suggestion accepted or rejected (a rejected pair is never proposed again)."""
    if "transfer_id" in args:
        if args.get("decision") == "reject":
            transfer_suggestion_reject(user=ctx.user, transfer_id=args["transfer_id"])
            return {"rejected": True, "transfer_id": args["transfer_id"]}
        transfer = transfer_suggestion_accept(user=ctx.user, transfer_id=args["transfer_id"])
    elif "outgoing_id" in args or "incoming_id" in args:
        transfer = transfer_create(user=ctx.user, out_id=args.get("outgoing_id"), in_id=args.get("incoming_id"))
    else:
        raise BadToolInput("Name the rows (outgoing_id, incoming_id) or a suggestion (transfer_id).")
    return {"marked": True, "transfer": transfer_out(transfer)}


TOOLS = (
    Tool(
        name="list_transfers",
        family=READ,
        workflows=("inspect", "update"),
        description=(
            "The user's transfers between their own accounts (status paired, default) or the transfers Zeus "
            "suggests and waits for them to confirm (status suggested). A paired transfer is neither spending "
            "nor income anywhere."
        ),
        input_schema=schema({"status": {"type": "string", "enum": ["paired", "suggested"]}}),
        handler=list_transfers,
    ),
    Tool(
        name="mark_transfer",
        family=MUTATION,
        workflows=("update",),
        description=(
            "Mark transactions as a transfer between the user's own accounts: outgoing_id (the expense side) "
            "and/or incoming_id (the income side; one side alone when the other account is not tracked). Or "
            "answer a suggested transfer: transfer_id with decision accept or reject. Afterwards the rows "
            "count as neither spending nor income."
        ),
        input_schema=schema(
            {
                "outgoing_id": ID,
                "incoming_id": ID,
                "transfer_id": ID,
                "decision": {"type": "string", "enum": ["accept", "reject"]},
            }
        ),
        handler=mark_transfer,
    ),
)

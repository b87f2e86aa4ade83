"""Mutation tools: manual transactions, manual assets and goals, through the domain services.

Every call is recorded against its tool call id by the runner (replay protection). The deletes are CONFIRM
tools: their handler only checks the target and describes it; `execute` runs after the user approves.
"""

from assets.ledger.corrections import transaction_correct
from assets.ledger.selectors import payment_account_list, transaction_ledger_fields
from assets.rules.offers import rule_offer
from assets.selectors import asset_get, transaction_get
from assets.services import (
    asset_create,
    asset_delete,
    asset_update,
    transaction_create,
    transaction_delete,
)
from chat import cards
from chat.tools.base import (
    AMOUNT,
    ASSET_KINDS,
    CATEGORY,
    CONFIRM,
    CURRENCY,
    DATE,
    DIRECTION,
    GOAL_KINDS,
    ID,
    MUTATION,
    BadToolInput,
    Tool,
    ToolContext,
    asset_out,
    goal_out,
    schema,
    transaction_out,
)
from goals.selectors import goal_progress_of
from goals.services import goal_create
from zeus.errors import SyncedReadOnly
from zeus.money import parse_money
from zeus.timeutil import parse_date

TRANSACTION_FIELDS = ("amount", "description", "direction", "category", "occurred_on", "currency", "asset_id")
CORRECTION_FIELDS = ("note", "excluded")
# More manual assets than this and the selector shows the newest ones; the model can still pass any id.
SELECTOR_LIMIT = 20


def create_goal(ctx: ToolContext, args: dict) -> dict:
    goal = goal_create(
        user=ctx.user,
        name=args["name"],
        kind=args["kind"],
        target_amount=args["target_amount"],
        deadline=args["deadline"],
        current_amount=args.get("current_amount", 0),
        currency=args.get("currency"),
    )
    return {"created": True, "goal": goal_out(goal, goal_progress_of(goal, today=ctx.today))}


def create_manual_transaction(ctx: ToolContext, args: dict) -> dict:
    """Without asset_id and with several payment accounts (manual cash, bank, e-wallet and credit-card ones,
    not archived: never a motorbike), nothing is written: the user picks one on an asset_selector card and the
    model calls again with asset_id. With one payment account it is used; with none
    (or asset_id null, the user's explicit "no asset"), the transaction stands alone."""
    fields = {k: args[k] for k in TRANSACTION_FIELDS if k in args and k != "asset_id"}
    if "asset_id" in args:
        asset_id = args["asset_id"]
    else:
        manual = list(payment_account_list(user=ctx.user)[: SELECTOR_LIMIT + 1])
        if len(manual) > 1:
            _check_transaction_fields(ctx, fields)
            return {
                "status": "asset_required",
                "message": (
                    "Nothing was recorded yet. The user is shown their assets to pick from. When they answer "
                    "with an asset id, call create_manual_transaction again with the same fields and that "
                    "asset_id (or asset_id null if they want no asset)."
                ),
                "pending": fields,
                "assets": [asset_out(a) for a in manual[:SELECTOR_LIMIT]],
            }
        asset_id = manual[0].id if manual else None
    txn = transaction_create(user=ctx.user, asset_id=asset_id, **fields)
    return {"created": True, "transaction": transaction_out(txn, ledger=transaction_ledger_fields(txn=txn))}


def _check_transaction_fields(ctx: ToolContext, fields: dict) -> None:
    """Catches a bad amount or date before the user is asked to pick an asset for it."""
    parse_money(fields["amount"], fields.get("currency") or ctx.currency)
    if fields.get("occurred_on"):
        parse_date(fields["occurred_on"], "occurred_on")


def update_manual_transaction(ctx: ToolContext, args: dict) -> dict:
    changes = {k: args[k] for k in (*TRANSACTION_FIELDS, *CORRECTION_FIELDS) if k in args}
    if not changes:
        raise BadToolInput("Name at least one field to change.")
    before = transaction_get(user=ctx.user, transaction_id=args["transaction_id"]).category
    # The corrections, as the REST's PATCH: any row takes a category, a description, a note or `excluded`; a
    # synced or imported row refuses its bank's facts (409 SYNCED_READ_ONLY), a paired one a new amount.
    txn = transaction_correct(user=ctx.user, transaction_id=args["transaction_id"], **changes)
    out = {"updated": True, "transaction": transaction_out(txn, ledger=transaction_ledger_fields(txn=txn))}
    if txn.category != before:
        # Recategorizing teaches: offer the rule (create_rule with these fields) that would have done it.
        offer = rule_offer(user=ctx.user, txn=txn)
        if offer:
            out["rule_offer"] = offer
    return out


def check_transaction_delete(ctx: ToolContext, args: dict) -> dict:
    txn = transaction_get(user=ctx.user, transaction_id=args["transaction_id"])
    if not txn.editable:
        raise SyncedReadOnly("transaction")
    return {"transaction": transaction_out(txn, ledger=transaction_ledger_fields(txn=txn))}


def execute_transaction_delete(ctx: ToolContext, args: dict) -> dict:
    target = check_transaction_delete(ctx, args)
    transaction_delete(user=ctx.user, transaction_id=args["transaction_id"])
    return {"deleted": True, **target}


def create_manual_asset(ctx: ToolContext, args: dict) -> dict:
    asset = asset_create(
        user=ctx.user,
        name=args["name"],
        kind=args["kind"],
        balance=args.get("balance", 0),
        currency=args.get("currency"),
    )
    return {"created": True, "asset": asset_out(asset)}


def update_manual_asset(ctx: ToolContext, args: dict) -> dict:
    changes = {k: args[k] for k in ("name", "kind", "balance") if k in args}
    if not changes:
        raise BadToolInput("Name at least one field to change.")
    asset = asset_update(user=ctx.user, asset_id=args["asset_id"], **changes)
    return {"updated": True, "asset": asset_out(asset)}


def check_asset_delete(ctx: ToolContext, args: dict) -> dict:
    asset = asset_get(user=ctx.user, asset_id=args["asset_id"])
    if not asset.editable:
        raise SyncedReadOnly("asset")
    return {"asset": asset_out(asset)}


def execute_asset_delete(ctx: ToolContext, args: dict) -> dict:
    target = check_asset_delete(ctx, args)
    asset_delete(user=ctx.user, asset_id=args["asset_id"])
    return {"deleted": True, **target}


NAME = {"type": "string", "minLength": 1, "maxLength": 100}
DESCRIPTION = {"type": "string", "maxLength": 200, "description": "What it was for (merchant, item)."}
TXN_PROPS = {
    "amount": AMOUNT,
    "description": DESCRIPTION,
    "direction": {**DIRECTION, "description": "expense (default) or income."},
    "category": {**CATEGORY, "description": "Defaults to other (expense) or other_income (income)."},
    "occurred_on": {**DATE, "description": "YYYY-MM-DD; defaults to the user's today."},
    "currency": CURRENCY,
    "asset_id": {
        "type": ["integer", "null"],
        "minimum": 1,
        "description": "The asset paid from or into (an id from list_assets or the user's pick); null for none.",
    },
}

TOOLS = (
    Tool(
        name="create_goal",
        family=MUTATION,
        workflows=("coach",),
        card=cards.goal,
        description=(
            "Create a financial goal for the user. deadline is YYYY-MM-DD or a span from today such as "
            "'10 years' or '18 months'. When the user submitted a goal form, use its JSON values exactly."
        ),
        input_schema=schema(
            {
                "name": NAME,
                "kind": {"type": "string", "enum": GOAL_KINDS},
                "target_amount": AMOUNT,
                "deadline": {"type": "string", "minLength": 1, "maxLength": 40},
                "current_amount": {**AMOUNT, "description": "Already saved; default 0."},
                "currency": CURRENCY,
            },
            required=("name", "kind", "target_amount", "deadline"),
        ),
        handler=create_goal,
    ),
    Tool(
        name="create_manual_transaction",
        family=MUTATION,
        workflows=("bundle_create", "create"),
        card=cards.transaction,
        description=(
            "Record one manual expense or income. Defaults: direction expense, today's date, the user's "
            "currency. Leave asset_id out unless the user named or picked the asset: when they have several "
            "assets the result asks them to pick one on a card and nothing is recorded until they do."
        ),
        input_schema=schema(TXN_PROPS, required=("amount", "description")),
        handler=create_manual_transaction,
    ),
    Tool(
        name="update_manual_transaction",
        family=MUTATION,
        workflows=("update",),
        card=cards.transaction,
        description=(
            "Change or correct a transaction: pass its id and only the fields to change. Any row takes category, "
            "description, note and excluded (true: left out of every total); a synced or imported row refuses "
            "a new amount, date, direction, currency or asset. When the result has rule_offer, ask whether to "
            "always file that merchant so (create_rule with it)."
        ),
        input_schema=schema(
            {
                "transaction_id": ID,
                **TXN_PROPS,
                "note": {"type": "string", "maxLength": 500},
                "excluded": {"type": "boolean"},
            },
            required=("transaction_id",),
        ),
        handler=update_manual_transaction,
    ),
    Tool(
        name="delete_manual_transaction",
        family=CONFIRM,
        workflows=("delete",),
        card=cards.transaction,
        description=(
            "Delete a manual transaction. Nothing is deleted by this call: the user is shown a confirmation "
            "card and the deletion happens only when they approve it."
        ),
        input_schema=schema({"transaction_id": ID}, required=("transaction_id",)),
        handler=check_transaction_delete,
        execute=execute_transaction_delete,
    ),
    Tool(
        name="create_manual_asset",
        family=MUTATION,
        workflows=("bundle_create", "asset_create"),
        card=cards.asset,
        description="Create a manual asset (cash, bank_account, e_wallet, savings, investment, property, vehicle...).",
        input_schema=schema(
            {
                "name": NAME,
                "kind": {"type": "string", "enum": ASSET_KINDS},
                "balance": {**AMOUNT, "description": "Current balance or value; default 0."},
                "currency": CURRENCY,
            },
            required=("name", "kind"),
        ),
        handler=create_manual_asset,
    ),
    Tool(
        name="update_manual_asset",
        family=MUTATION,
        workflows=("asset_update",),
        card=cards.asset,
        description="Change a manual asset's name, kind or balance. Synced assets refuse.",
        input_schema=schema(
            {
                "asset_id": ID,
                "name": NAME,
                "kind": {"type": "string", "enum": ASSET_KINDS},
                "balance": {**AMOUNT, "description": "The new balance or value."},
            },
            required=("asset_id",),
        ),
        handler=update_manual_asset,
    ),
    Tool(
        name="delete_manual_asset",
        family=CONFIRM,
        workflows=("asset_delete",),
        card=cards.asset,
        description=(
            "Delete a manual asset. Nothing is deleted by this call: the user is shown a confirmation card and "
            "the deletion happens only when they approve it."
        ),
        input_schema=schema({"asset_id": ID}, required=("asset_id",)),
        handler=check_asset_delete,
        execute=execute_asset_delete,
    ),
)

"""Money-in tools: bank texts read into drafts and decided, and categorization rules, through the assets
services (assets.banktexts, assets.rules). A pasted bank text reaches the `bank_text` workflow by pattern,
with no router model call (chat.router)."""

from assets.banktexts.services import (
    bank_text_draft_confirm,
    bank_text_draft_create,
    bank_text_draft_discard,
)
from assets.ledger.selectors import transaction_ledger_fields
from assets.rules.selectors import rule_currency, rule_list
from assets.rules.services import rule_apply_to_existing, rule_create
from chat import cards
from chat.tools.base import (
    AMOUNT,
    CATEGORY,
    DATE,
    DIRECTION,
    ID,
    MUTATION,
    READ,
    Tool,
    ToolContext,
    money,
    schema,
    transaction_out,
)

RULES_SHOWN = 100


def draft_out(draft) -> dict:
    return {
        "draft_id": draft.id,
        "status": draft.status,
        "parsed_by": draft.parsed_by,
        "bank": draft.bank or None,
        "amount": money(draft.amount, draft.currency),
        "currency": draft.currency,
        "direction": draft.direction,
        "occurred_at": draft.occurred_at.isoformat(),
        "description": draft.description,
        "category": draft.category,
        "account_mask": draft.account_mask or None,
        "balance_after": money(draft.balance_after, draft.currency) if draft.balance_after is not None else None,
        "asset_id": draft.asset_id,
        "linked_account_id": draft.linked_account_id,
        "duplicate_of": draft.duplicate_of_id,
    }


def read_bank_text(ctx: ToolContext, args: dict) -> dict:
    draft = bank_text_draft_create(user=ctx.user, text=args["text"])
    return {"draft": draft_out(draft), "saved": False}


def decide_bank_text_draft(ctx: ToolContext, args: dict) -> dict:
    if args["decision"] == "discard":
        draft = bank_text_draft_discard(user=ctx.user, draft_id=args["draft_id"])
        return {"discarded": True, "draft_id": draft.id}
    values = dict(args.get("values") or {})
    if "asset_id" in values:
        values["asset"] = values.pop("asset_id")
    txn = bank_text_draft_confirm(
        user=ctx.user, draft_id=args["draft_id"], values=values, save_anyway=bool(args.get("save_anyway"))
    )
    return {"created": True, "transaction": transaction_out(txn, ledger=transaction_ledger_fields(txn=txn))}


def rule_out(rule, currency: str) -> dict:
    return {
        "id": rule.id,
        "match": rule.match,
        "direction": rule.direction,
        "min_amount": money(rule.min_amount, currency) if rule.min_amount is not None else None,
        "max_amount": money(rule.max_amount, currency) if rule.max_amount is not None else None,
        "category": rule.category,
        "position": rule.position,
    }


def list_rules(ctx: ToolContext, args: dict) -> dict:
    currency = rule_currency(ctx.user)
    rules = list(rule_list(user=ctx.user)[: RULES_SHOWN + 1])
    return {"rules": [rule_out(r, currency) for r in rules[:RULES_SHOWN]], "more": len(rules) > RULES_SHOWN}


def create_rule(ctx: ToolContext, args: dict) -> dict:
    rule = rule_create(
        user=ctx.user,
        match=args["match"],
        category=args["category"],
        direction=args.get("direction"),
        min_amount=args.get("min_amount"),
        max_amount=args.get("max_amount"),
    )
    applied = rule_apply_to_existing(user=ctx.user, rule=rule) if args.get("apply_to_existing") else 0
    return {"created": True, "rule": rule_out(rule, rule_currency(ctx.user)), "applied": applied}


CORRECTIONS = schema(
    {
        "amount": AMOUNT,
        "direction": DIRECTION,
        "occurred_on": DATE,
        "description": {"type": "string", "maxLength": 200},
        "category": CATEGORY,
        "asset_id": ID,
    }
)

TOOLS = (
    Tool(
        name="read_bank_text",
        family=MUTATION,
        workflows=("bank_text",),
        card=cards.transaction_draft,
        description=(
            "Read a bank SMS or app notification the user pasted into a draft transaction (amount, direction, "
            "time, account, category). Nothing is saved: the card asks the user to save or discard it. Pass "
            "the text exactly as the user pasted it. When the result has duplicate_of, say the ledger already "
            "holds this payment."
        ),
        input_schema=schema({"text": {"type": "string", "minLength": 1, "maxLength": 1000}}, required=("text",)),
        handler=read_bank_text,
    ),
    Tool(
        name="decide_bank_text_draft",
        family=MUTATION,
        workflows=("bank_text",),
        card=cards.draft_decided,
        description=(
            "Save (with the user's corrections, if any) or discard a bank-text draft, as the user decided on "
            "its card. save_anyway only when the user insists on saving a draft the ledger already holds."
        ),
        input_schema=schema(
            {
                "draft_id": ID,
                "decision": {"type": "string", "enum": ["save", "discard"]},
                "values": CORRECTIONS,
                "save_anyway": {"type": "boolean"},
            },
            required=("draft_id", "decision"),
        ),
        handler=decide_bank_text_draft,
    ),
    Tool(
        name="list_rules",
        family=READ,
        workflows=("coach", "inspect", "update", "bank_text"),
        description=(
            "The user's categorization rules in the order they apply (text found in a description → "
            "category, optionally per direction and amount range)."
        ),
        input_schema=schema({}),
        handler=list_rules,
    ),
    Tool(
        name="create_rule",
        family=MUTATION,
        workflows=("update", "bank_text"),
        card=cards.rule,
        description=(
            "Add a categorization rule: transactions whose description contains `match` (case and accents do "
            "not matter) get `category`. Use it when the user says a merchant should always be filed under a "
            "category; apply_to_existing also recategorizes the transactions already recorded."
        ),
        input_schema=schema(
            {
                "match": {"type": "string", "minLength": 1, "maxLength": 100},
                "category": CATEGORY,
                "direction": DIRECTION,
                "min_amount": AMOUNT,
                "max_amount": AMOUNT,
                "apply_to_existing": {"type": "boolean"},
            },
            required=("match", "category"),
        ),
        handler=create_rule,
    ),
)

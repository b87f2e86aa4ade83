"""The rule Zeus offers when a user recategorizes a transaction: "always file <merchant> under <category>"."""

from assets.models import Transaction
from assets.rules.services import categorize, merchant_of, rules_for


def rule_offer(*, user, txn: Transaction) -> dict | None:
    """The offer's fields (POST them to /api/v1/rules with apply_to_existing to accept), or None when the
    description has nothing to match on or the user's rules already give this category."""
    match = merchant_of(txn.description)
    if not match:
        return None
    current = categorize(rules=rules_for(user=user), text=txn.description, amount=txn.amount, direction=txn.direction)
    if current.by == "rule" and current.category == txn.category:
        return None
    return {"match": match, "direction": txn.direction, "category": txn.category, "apply_to_existing": True}

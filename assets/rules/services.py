"""Writes and use of categorization rules. Views, the admin, the chat tools and the importers call these."""

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction as db_transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from assets import categories
from assets.models import CategoryRule, Transaction
from assets.rules import merchants
from assets.rules.text import fold
from zeus.errors import NotFound, ValidationFailed
from zeus.money import parse_money
from zeus.selectors import user_currency
from zeus.validation import clean_text, record_id

_UNSET = object()
MAX_RULES = 500


@dataclass(frozen=True)
class Categorized:
    category: str
    # "rule", "merchant" or "default": what named the category (the draft card says so).
    by: str
    rule_id: int | None = None
    merchant: str | None = None


def rules_for(*, user) -> list[CategoryRule]:
    """The user's rules in the order they apply; load once per import or delivery and pass to categorize()."""
    return list(CategoryRule.objects.filter(user=user).order_by("position", "id"))


def categorize(*, rules: list[CategoryRule], text: str, amount: Decimal, direction: str) -> Categorized:
    """The first rule that matches (in position order) whose category fits the direction; else the merchant
    dictionary's guess; else the direction's default."""
    folded = fold(text)
    for rule in rules:
        if rule.match_folded not in folded:
            continue
        if rule.direction and rule.direction != direction:
            continue
        if rule.min_amount is not None and amount < rule.min_amount:
            continue
        if rule.max_amount is not None and amount > rule.max_amount:
            continue
        if not categories.fits(rule.category, direction):
            continue
        return Categorized(category=rule.category, by="rule", rule_id=rule.id)
    hit = merchants.guess(text, fits=lambda category: categories.fits(category, direction), folded=folded)
    if hit:
        return Categorized(category=hit[0], by="merchant", merchant=hit[1])
    return Categorized(category=categories.default_for(direction), by="default")


def merchant_of(text: str) -> str:
    """What a rule offered from a recategorization matches on: the known merchant's name when the dictionary
    knows it, else the description's first words (bank texts put the counterpart first)."""
    hit = merchants.guess(text, fits=lambda category: True)
    if hit:
        return hit[1]
    return " ".join(fold(text).split()[:3])[:100]


def _clean(user, *, match, direction, min_amount, max_amount, category, position) -> dict:
    match = clean_text(match, "match", max_length=100, required=True)
    if not any(ch.isalnum() for ch in fold(match)):
        raise ValidationFailed(_("match must contain letters or digits."), fields={"match": [_("Nothing to match.")]})
    if direction in ("", None):
        direction = None
    elif direction not in Transaction.Direction.values:
        raise ValidationFailed(_("direction must be expense or income."), fields={"direction": [_("Not valid.")]})
    if category not in categories.ALL:
        raise ValidationFailed(
            _("Unknown category %(category)r.") % {"category": category}, fields={"category": [_("Not a category.")]}
        )
    if direction and not categories.fits(category, direction):
        raise ValidationFailed(
            _("%(category)s is not an %(direction)s category.") % {"category": category, "direction": direction},
            fields={"category": [_("Not an %(direction)s category.") % {"direction": direction}]},
        )
    currency = user_currency(user)
    low = None if min_amount in (None, "") else parse_money(min_amount, currency, field="min_amount", allow_zero=True)
    high = None if max_amount in (None, "") else parse_money(max_amount, currency, field="max_amount")
    if low is not None and high is not None and low > high:
        raise ValidationFailed(
            _("min_amount is above max_amount."), fields={"min_amount": [_("Must not be above max_amount.")]}
        )
    if position is not None and (isinstance(position, bool) or not isinstance(position, int) or position < 0):
        raise ValidationFailed(_("position must be a whole number ≥ 0."), fields={"position": [_("Not valid.")]})
    return {
        "match": match,
        "match_folded": fold(match),
        "direction": direction,
        "min_amount": low,
        "max_amount": high,
        "category": category,
        "position": position,
    }


def rule_fields_check(user, **fields) -> None:
    """Raises what rule_create or rule_update would raise for these fields (the admin form shows it)."""
    _clean(user, **fields)


def rule_create(
    *, user, match, category, direction=None, min_amount=None, max_amount=None, position=None
) -> CategoryRule:
    """A new rule; without a position it goes last."""
    fields = _clean(
        user,
        match=match,
        direction=direction,
        min_amount=min_amount,
        max_amount=max_amount,
        category=category,
        position=position,
    )
    with db_transaction.atomic():
        existing = CategoryRule.objects.select_for_update().filter(user=user)
        if existing.count() >= MAX_RULES:
            raise ValidationFailed(_("At most %(MAX_RULES)s rules.") % {"MAX_RULES": MAX_RULES}, code="TOO_MANY_RULES")
        if fields["position"] is None:
            last = existing.aggregate(last=Max("position"))["last"]
            fields["position"] = 0 if last is None else last + 1
        return CategoryRule.objects.create(user=user, **fields)


def _own_rule(user, rule_id, *, lock=False) -> CategoryRule:
    qs = CategoryRule.objects.filter(user=user, id=record_id(rule_id))
    rule = (qs.select_for_update() if lock else qs).first()
    if rule is None:
        raise NotFound(_("No such rule."))
    return rule


def rule_update(*, user, rule_id, **changes) -> CategoryRule:
    unknown = set(changes) - {"match", "direction", "min_amount", "max_amount", "category", "position"}
    if unknown:
        raise ValidationFailed(_("Unknown fields: %(value)s.") % {"value": ", ".join(sorted(unknown))})
    with db_transaction.atomic():
        rule = _own_rule(user, rule_id, lock=True)
        current = {
            "match": rule.match,
            "direction": rule.direction,
            "min_amount": rule.min_amount,
            "max_amount": rule.max_amount,
            "category": rule.category,
            "position": rule.position,
        }
        fields = _clean(user, **{**current, **changes})
        for name, value in fields.items():
            setattr(rule, name, value)
        rule.save()
    return rule


def rule_delete(*, user, rule_id) -> None:
    _own_rule(user, rule_id).delete()


def rule_apply_to_existing(*, user, rule: CategoryRule) -> int:
    """Recategorizes the user's existing transactions this rule matches (feed and statement rows too: their
    category is Zeus's reading, not the bank's). Returns how many changed."""
    changed = 0
    qs = Transaction.objects.filter(user=user).exclude(category=rule.category)
    if rule.direction:
        qs = qs.filter(direction=rule.direction)
    if rule.min_amount is not None:
        qs = qs.filter(amount__gte=rule.min_amount)
    if rule.max_amount is not None:
        qs = qs.filter(amount__lte=rule.max_amount)
    ids = [
        txn_id
        for txn_id, description, direction in qs.values_list("id", "description", "direction").iterator(2_000)
        if rule.match_folded in fold(description) and categories.fits(rule.category, direction)
    ]
    for start in range(0, len(ids), 1_000):
        changed += Transaction.objects.filter(id__in=ids[start : start + 1_000]).update(category=rule.category)
    return changed

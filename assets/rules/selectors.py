"""Reads of categorization rules, scoped to one user."""

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from assets.models import CategoryRule
from zeus.errors import NotFound
from zeus.selectors import user_currency
from zeus.validation import record_id


def rule_list(*, user) -> QuerySet[CategoryRule]:
    return CategoryRule.objects.filter(user=user).order_by("position", "id")


def rule_get(*, user, rule_id) -> CategoryRule:
    rule = CategoryRule.objects.filter(user=user, id=record_id(rule_id)).first()
    if rule is None:
        raise NotFound(_("No such rule."))
    return rule


def rule_currency(user) -> str:
    """Rule amounts are in the user's currency (the one their ledger is kept in)."""
    return user_currency(user)

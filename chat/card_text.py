"""The words and figures on the chat's cards, in the reader's language: labels of the ledger's codes, amounts and
days through Babel. Cards are text for people, built in the language chat.tools.card_of activates per turn."""

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.utils import translation
from django.utils.translation import gettext_lazy

from assets.labels import ASSET_KIND, CATEGORY
from goals.labels import GOAL_KIND
from zeus.errors import ValidationFailed
from zeus.formatting import date_text
from zeus.money import format_amount

PERIOD_TITLES = {
    "this_month": gettext_lazy("this month"),
    "last_month": gettext_lazy("last month"),
    "last_30_days": gettext_lazy("the last 30 days"),
    "last_90_days": gettext_lazy("the last 90 days"),
}
SPENDING_BY = {
    "category": gettext_lazy("Spending by category, %(period)s"),
    "day": gettext_lazy("Spending by day, %(period)s"),
    "week": gettext_lazy("Spending by week, %(period)s"),
}
INTERVAL = {"weekly": gettext_lazy("Weekly"), "monthly": gettext_lazy("Monthly"), "yearly": gettext_lazy("Yearly")}
SERIES_KIND = {
    "subscription": gettext_lazy("Subscription"),
    "bill": gettext_lazy("Bill"),
    "income": gettext_lazy("Income"),
}
RECORD_TITLES = {
    ("transaction", "created"): gettext_lazy("Transaction created"),
    ("transaction", "updated"): gettext_lazy("Transaction updated"),
    ("transaction", "deleted"): gettext_lazy("Transaction deleted"),
    ("asset", "created"): gettext_lazy("Asset created"),
    ("asset", "updated"): gettext_lazy("Asset updated"),
    ("asset", "deleted"): gettext_lazy("Asset deleted"),
}
KEPT = {
    "transaction": gettext_lazy("Kept the transaction; nothing was deleted."),
    "asset": gettext_lazy("Kept the asset; nothing was deleted."),
}


def amount_text(value: str, currency: str) -> str:
    """A card's amount as its reader writes it ("150.000 ₫" in Vietnamese)."""
    try:
        return format_amount(Decimal(value), currency, locale=translation.get_language() or "vi")
    except (InvalidOperation, KeyError, ValueError, TypeError, ValidationFailed):
        return f"{value} {currency}"


def day_text(value: str | None) -> str:
    """An ISO date (or the date of an ISO timestamp) as its reader writes it; anything else as it came."""
    if not value:
        return "—"
    try:
        return date_text(dt.date.fromisoformat(str(value)[:10]))
    except ValueError:
        return str(value)


def moment_text(value: str | None) -> str:
    """A draft's moment: its day, and its time of day when the text gave one."""
    text = day_text(value)
    clock = str(value or "")[11:16]
    return f"{text} {clock}" if clock and clock != "00:00" else text


def code_text(key: str) -> str:
    return key.replace("_", " ").capitalize()


def category_text(code: str) -> str:
    return str(CATEGORY.get(code) or code_text(code))


def asset_kind_text(code: str) -> str:
    return str(ASSET_KIND.get(code) or code_text(code))


def goal_kind_text(code: str) -> str:
    return str(GOAL_KIND.get(code) or code_text(code))

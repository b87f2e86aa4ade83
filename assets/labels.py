"""What people read for the ledger's codes, in their language: categories, directions, sources, asset kinds.

The codes stay English in the database and the API (the contract's values); pages and forms show these."""

from django.utils.translation import gettext_lazy as _

from assets import categories

CATEGORY = {
    "housing": _("Housing"),
    "utilities": _("Utilities"),
    "groceries": _("Groceries"),
    "transport": _("Transport"),
    "health": _("Health"),
    "education": _("Education"),
    "insurance": _("Insurance"),
    "debt_payment": _("Debt payment"),
    "dining": _("Dining"),
    "shopping": _("Shopping"),
    "entertainment": _("Entertainment"),
    "travel": _("Travel"),
    "personal_care": _("Personal care"),
    "gifts": _("Gifts"),
    "subscriptions": _("Subscriptions"),
    "other": _("Other"),
    "salary": _("Salary"),
    "bonus": _("Bonus"),
    "interest": _("Interest"),
    "other_income": _("Other income"),
}
assert set(CATEGORY) == set(categories.ALL)

DIRECTION = {"expense": _("Expense"), "income": _("Income")}
FEED_AUTH = {"api_key": _("API key"), "hmac": _("HMAC signature")}
SOURCE = {"manual": _("Entered by you"), "synced": _("Synced")}
ASSET_KIND = {
    "cash": _("Cash"),
    "bank_account": _("Bank account"),
    "e_wallet": _("E-wallet"),
    "savings": _("Savings"),
    "investment": _("Investment"),
    "property": _("Property"),
    "vehicle": _("Vehicle"),
    "other": _("Other"),
    "credit_card": _("Credit card"),
    "loan": _("Loan"),
}


def category_choices(codes=categories.ALL) -> list[tuple[str, str]]:
    return [(code, CATEGORY[code]) for code in codes]


def grouped_category_choices() -> list:
    """For a <select>: expenses (essential, discretionary) and income in labelled groups."""
    return [
        (_("Essential"), category_choices(categories.ESSENTIAL)),
        (_("Discretionary"), category_choices(categories.DISCRETIONARY)),
        (_("Income"), category_choices(categories.INCOME)),
    ]


def category_label(code: str) -> str:
    return str(CATEGORY.get(code, code))

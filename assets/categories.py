"""The category list of the contract. Essential and discretionary expenses drive the plan buckets."""

ESSENTIAL = ("housing", "utilities", "groceries", "transport", "health", "education", "insurance", "debt_payment")
DISCRETIONARY = (
    "dining",
    "shopping",
    "entertainment",
    "travel",
    "personal_care",
    "gifts",
    "subscriptions",
    "other",
)
INCOME = ("salary", "bonus", "interest", "other_income")
EXPENSE = ESSENTIAL + DISCRETIONARY
ALL = EXPENSE + INCOME
CHOICES = [(c, c.replace("_", " ").capitalize()) for c in ALL]
EXPENSE_CHOICES = [(c, c.replace("_", " ").capitalize()) for c in EXPENSE]

DEFAULT_EXPENSE = "other"
DEFAULT_INCOME = "other_income"


def default_for(direction: str) -> str:
    return DEFAULT_INCOME if direction == "income" else DEFAULT_EXPENSE


def fits(category: str, direction: str) -> bool:
    return category in (INCOME if direction == "income" else EXPENSE)


def is_essential(category: str) -> bool:
    return category in ESSENTIAL


def is_discretionary(category: str) -> bool:
    return category in DISCRETIONARY

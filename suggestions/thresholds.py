"""The numbers the rules and detectors use. docs/suggestions.md explains each."""

from decimal import Decimal

# An excess smaller than this is never worth a notification, however unusual (roughly USD 20 everywhere).
MINIMUM_AMOUNT = {
    "VND": Decimal(500_000),
    "USD": Decimal(20),
    "EUR": Decimal(20),
    "GBP": Decimal(15),
    "JPY": Decimal(3_000),
    "KRW": Decimal(25_000),
    "SGD": Decimal(25),
    "THB": Decimal(700),
    "AUD": Decimal(30),
    "CAD": Decimal(25),
    "CNY": Decimal(150),
    "HKD": Decimal(150),
    "IDR": Decimal(300_000),
    "MYR": Decimal(90),
    "PHP": Decimal(1_100),
    "TWD": Decimal(600),
    "INR": Decimal(1_700),
    "CHF": Decimal(20),
}


def minimum_amount(currency: str) -> Decimal:
    return MINIMUM_AMOUNT.get(currency, Decimal(20))


# Insights
LOOKBACK_DAYS = 90
WEEKS_OF_HISTORY = 12  # the 7-day windows before the last one: 13 windows, 91 days ending today
MIN_HISTORY_WEEKS = 6  # fewer windows since the user's first expense and a spike says nothing
SPIKE_Z = Decimal("3.5")
BUDGET_LEVELS = (80, 100)
RECURRING_OTHER_DAYS = 2  # same merchant and amount on this many other days: a recurring series
HABIT_OTHER_DAYS = 4  # a merchant seen on this many other days: equal charges a day apart are two visits

# Rule-based suggestions
SPENDING_WATCH_MIN_DAY = 7
SPENDING_WATCH_RATIO = Decimal("1.2")
GUARDRAIL_MIN_DAY = 5

# Recurring series
RECURRING_LOOKBACK_DAYS = 800  # three yearly charges need a little over two years
BILL_DUE_DAYS = 7  # a bill_due insight comes this many days before the charge, at most

BATCH_SIZE = 500

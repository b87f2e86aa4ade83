"""The ledger's panels on the home page (zeus/panels.py): net worth and its trend, and this month."""

from decimal import Decimal

from django.utils.translation import gettext as _

from assets import labels
from assets.selectors import HeldAccount, assets_of_kinds
from assets.summary import ledger_summary
from zeus.charts import Chart, Series
from zeus.panels import shared
from zeus.selectors import user_currency


def held_accounts(request) -> list[HeldAccount]:
    """The user's accounts of every kind, read once per request: the net worth sums their balances and the
    forecast (plans/forecast_home.py) starts from the spendable ones."""
    user_id = request.user.pk
    return shared(request, ("assets.accounts",), lambda: assets_of_kinds(user_ids=[user_id])[user_id])


def _summary(request, currency, today):
    return shared(
        request,
        ("assets.ledger_summary", currency, today),
        lambda: ledger_summary(user=request.user, currency=currency, today=today, accounts=held_accounts(request)),
    )


def _worth(request, currency, today):
    return _summary(request, currency, today).net_worth


def spending_by_category(request, currency, today):
    """This month's and last month's spending per category, read once for the page (the budgets use it too)."""
    return _summary(request, currency, today).spending_by_category


def this_month_counted(request, currency, today):
    """This month's money that counts (assets.summary.LedgerSummary.this_month), from the page's one read."""
    return _summary(request, currency, today).this_month


def this_month_days(request, currency, today):
    """This month's money that counts per day, first to last day (LedgerSummary.month_days), from the page's one
    read: the month's plan reads it (plans/home.py)."""
    return _summary(request, currency, today).month_days


def net_worth_panel(request, today) -> dict:
    currency = user_currency(request.user)
    worth = _worth(request, currency, today)
    first = worth.trend[0].worth
    return {
        "worth": worth,
        # Balances in another currency no rate converts: named, left out of the figure, never at 1:1.
        "rate_missing": [{"currency": c, "amount": amount} for c, amount in worth.other_currencies.items()],
        "change": worth.today - first,
        "chart": Chart(
            id="net-worth",
            kind="line",
            caption=_("Net worth, the last 12 months"),
            # `date_format(month, "n/Y")`, which reads no locale (month and year as plain digits), written out:
            # twelve calls through Django's format lookups were half of this panel's context.
            labels=[f"{end.month.month}/{end.month.year:04d}" for end in worth.trend],
            currency=currency,
            label_heading=_("Month"),
            series=[Series(label=_("Net worth"), values=[end.worth for end in worth.trend])],
        ),
        "prompt": _("How has my net worth changed this year?"),
    }


def this_month_panel(request, today) -> dict:
    currency = user_currency(request.user)
    month = _worth(request, currency, today).months[-1]  # the trend's last month is this one, so far
    income, expense = month.income, month.expense
    by_category = spending_by_category(request, currency, today)
    summary = _summary(request, currency, today)
    top = sorted(by_category.items(), key=lambda item: (-item[1].now, -item[1].before))[:8]
    return {
        "currency": currency,
        "income": income,
        "expense": expense,
        "left": income - expense,
        "rate_missing": summary.rate_missing,  # rows in another currency with no rate: named, never counted at 1:1
        "converted": summary.converted,  # this month's rows in another currency, with the rates used
        "has_spending": any(s.now or s.before for _c, s in top),
        "chart": Chart(
            id="spending-by-category",
            kind="bar",
            caption=_("Spending by category: this month and last month"),
            labels=[labels.category_label(code) for code, _values in top],
            currency=currency,
            label_heading=_("Category"),
            series=[
                Series(label=_("This month"), values=[s.now for _c, s in top]),
                Series(label=_("Last month"), values=[s.before for _c, s in top]),
            ],
        ),
        "rows": [
            {
                "code": code,
                "label": labels.category_label(code),
                "now": s.now,
                "before": s.before,
                "up": s.now > s.before,
            }
            for code, s in top
        ],
        "prompt": _("Where did my money go this month?"),
        "zero": Decimal(0),
    }

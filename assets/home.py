"""The ledger's panels on the home page (zeus/panels.py): net worth and its trend, and this month."""

from decimal import Decimal

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from assets import labels
from assets.selectors import expense_by_category_two_months, net_worth, transaction_list, transaction_totals
from zeus.charts import Chart, Series
from zeus.selectors import user_currency


def net_worth_panel(request, today) -> dict:
    currency = user_currency(request.user)
    worth = net_worth(user=request.user, currency=currency, today=today)
    first = worth.trend[0][1]
    return {
        "worth": worth,
        "change": worth.today - first,
        "chart": Chart(
            id="net-worth",
            kind="line",
            caption=_("Net worth, the last 12 months"),
            labels=[date_format(month, "n/Y") for month, _value in worth.trend],
            currency=currency,
            label_heading=_("Month"),
            series=[Series(label=_("Net worth"), values=[value for _month, value in worth.trend])],
        ),
        "prompt": _("How has my net worth changed this year?"),
    }


def this_month_panel(request, today) -> dict:
    currency = user_currency(request.user)
    totals = transaction_totals(transaction_list(user=request.user, since=today.replace(day=1), until=today))
    mine = next((t for t in totals if t.currency == currency), None)
    income = mine.income if mine else Decimal(0)
    expense = mine.expense if mine else Decimal(0)
    by_category = expense_by_category_two_months(user=request.user, currency=currency, today=today)
    top = sorted(by_category.items(), key=lambda item: (-item[1][0], -item[1][1]))[:8]
    return {
        "currency": currency,
        "income": income,
        "expense": expense,
        "left": income - expense,
        "has_spending": any(now or before for _c, (now, before) in top),
        "chart": Chart(
            id="spending-by-category",
            kind="bar",
            caption=_("Spending by category: this month and last month"),
            labels=[labels.category_label(code) for code, _values in top],
            currency=currency,
            label_heading=_("Category"),
            series=[
                Series(label=_("This month"), values=[now for _c, (now, _b) in top]),
                Series(label=_("Last month"), values=[before for _c, (_n, before) in top]),
            ],
        ),
        "rows": [
            {"code": code, "label": labels.category_label(code), "now": now, "before": before, "up": now > before}
            for code, (now, before) in top
        ],
        "prompt": _("Where did my money go this month?"),
        "zero": Decimal(0),
    }

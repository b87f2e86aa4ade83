"""The forecast on the home (zeus/panels.py): the projected spendable balance as a line chart, its lowest point,
and the named events (income, bills, instalments) beside it."""

from django.utils.translation import gettext as _

from assets.home import held_accounts
from plans.forecast_read import cash_forecast
from plans.home import current_active_plan, upcoming_series
from zeus.charts import Chart, Series
from zeus.money import from_minor

EVENTS_SHOWN = 6


def forecast_panel(request, today) -> dict | None:
    # Fed with the page's reads: the accounts (net worth), the plan and its ledger (safe to spend) and the series
    # (the bills).
    view = cash_forecast(
        user=request.user,
        today=today,
        held=held_accounts(request),
        active=current_active_plan(request, today),
        series=upcoming_series(request, today),
    )
    if view.forecast is None:
        return {"empty": True, "prompt": _("How do I add my accounts?")}
    forecast, currency = view.forecast, view.currency
    events = [event for day in forecast.days for event in day.events if event.kind != "spending"]
    return {
        "empty": False,
        "currency": currency,
        "lowest_date": forecast.lowest.date,
        "lowest_balance": from_minor(forecast.lowest.balance, currency),
        "shortfall": forecast.shortfall,
        "events": [
            {"date": e.on, "label": e.label, "amount": from_minor(e.amount, currency)} for e in events[:EVENTS_SHOWN]
        ],
        "chart": Chart(
            id="forecast",
            kind="line",
            caption=_("Spendable money, the days ahead"),
            labels=[f"{day.date.day}/{day.date.month}" for day in forecast.days],
            currency=currency,
            label_heading=_("Day"),
            series=[Series(label=_("Balance"), values=[from_minor(day.balance, currency) for day in forecast.days])],
        ),
        "prompt": _("Will I run short of money before payday?"),
    }

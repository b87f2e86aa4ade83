"""The forecast as the API, the chat's tool and the home give it, and the `days` they all accept: plain data, no
view, so the chat's tool catalog does not load the REST layer."""

from django.utils.translation import gettext as _

from plans.forecast_read import ForecastView
from zeus.errors import ValidationFailed
from zeus.money import from_minor


def forecast_body(view: ForecastView) -> dict:
    """The forecast as the API, the chat's tool and the home give it: amounts as strings in `currency`."""
    money = lambda units: str(from_minor(units, view.currency))  # noqa: E731
    forecast = view.forecast
    if forecast is None:
        return {
            "currency": view.currency,
            "accounts": 0,
            "start_balance": "0",
            "days": [],
            "lowest": None,
            "cushion": "0",
            "shortfall": False,
            "other_currencies": list(view.other_currencies),
        }
    return {
        "currency": view.currency,
        "accounts": view.accounts,
        "start_balance": money(forecast.start_balance),
        "days": [
            {
                "date": day.date.isoformat(),
                "balance": money(day.balance),
                "events": [{"kind": e.kind, "label": e.label, "amount": money(e.amount)} for e in day.events],
            }
            for day in forecast.days
        ],
        "lowest": {"date": forecast.lowest.date.isoformat(), "balance": money(forecast.lowest.balance)},
        "cushion": money(forecast.cushion),
        "shortfall": forecast.shortfall,
        "other_currencies": list(view.other_currencies),
    }


def days_param(value) -> int | None:
    if value in (None, ""):
        return None
    try:
        days = int(value)
    except (TypeError, ValueError):
        days = 0
    if not 1 <= days <= 90:
        raise ValidationFailed(_("days is a whole number from 1 to 90."), fields={"days": [_("From 1 to 90.")]})
    return days

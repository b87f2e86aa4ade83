"""The home's forecast panel is fed with the page's own reads (this month's plan and its ledger, the recurring
series the bills panel shows) instead of reading them again: the same forecast as `cash_forecast` reads alone, and
as the nightly watch's batch reads."""

import pytest
from django.test import RequestFactory

from plans.forecast_home import EVENTS_SHOWN, forecast_panel
from plans.forecast_read import cash_forecast, cash_forecasts
from plans.home import current_active_plan, upcoming_series
from tests.forecast.test_forecast_batch import NOW, varied_user
from zeus.money import from_minor
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


def _page(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


@pytest.mark.parametrize("n", range(5))
def test_the_homes_forecast_is_cash_forecasts_for_the_same_user(n):
    user = varied_user(n)
    today = user_today(user, now=NOW)
    request = _page(user)
    fed = cash_forecast(
        user=user, today=today, active=current_active_plan(request, today), series=upcoming_series(request, today)
    )
    alone = cash_forecast(user=user, today=today)
    assert fed == alone == cash_forecasts(users=[user], today_of={user.pk: today})[user.pk]

    panel = forecast_panel(_page(user), today)
    if alone.forecast is None:
        assert panel["empty"] is True
        return
    forecast, currency = alone.forecast, alone.currency
    assert (panel["lowest_date"], panel["lowest_balance"]) == (
        forecast.lowest.date,
        from_minor(forecast.lowest.balance, currency),
    )
    assert panel["shortfall"] == forecast.shortfall
    assert panel["chart"].series[0].values == [from_minor(day.balance, currency) for day in forecast.days]
    named = [
        (e.on, e.label, from_minor(e.amount, currency)) for d in forecast.days for e in d.events if e.kind != "spending"
    ]
    assert named
    assert [(e["date"], e["label"], e["amount"]) for e in panel["events"]] == named[:EVENTS_SHOWN]

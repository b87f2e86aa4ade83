"""The home's forecast panel is fed with the page's own reads (this month's plan and its ledger, the recurring
series the bills panel shows) instead of reading them again: the same forecast as `cash_forecast` reads alone, and
as the nightly watch's batch reads."""

import datetime as dt

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from goals.debts.services import debt_create
from plans.forecast_home import EVENTS_SHOWN, forecast_panel
from plans.forecast_read import cash_forecast, cash_forecasts
from plans.home import current_active_plan, upcoming_series
from tests.forecast.test_forecast_batch import NOW, varied_user
from tests.forecast.test_forecast_one_read import planned
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


@pytest.mark.parametrize("owed", [(), ("owed_to_me",), ("owed_to_me", "i_owe")])
def test_the_homes_plan_read_carries_the_cushion_and_reads_the_debts_only_when_the_user_owes(owed):
    """The home's plan read carries the user's cushion and whether they owe on an open debt (as forecast_plan's
    row does), so its forecast reads neither apart: the same forecast as cash_forecast alone, the cushion and the
    instalments owed in it, and the debts read only for a user who owes on one."""
    user, today = planned("dung")
    for n, direction in enumerate(owed):
        debt_create(
            user=user, direction=direction, counterparty=f"Lan {n}", principal="900000", installments=3,
            first_due_on=today + dt.timedelta(days=4),
        )  # fmt: skip
    request = _page(user)
    with CaptureQueriesContext(connection) as seen:
        fed = cash_forecast(
            user=user, today=today, active=current_active_plan(request, today), series=upcoming_series(request, today)
        )
    alone = cash_forecast(user=user, today=today)
    assert fed == alone and fed.forecast.cushion == 500000
    assert bool([e for d in fed.forecast.days for e in d.events if e.kind == "debt"]) == ("i_owe" in owed)
    read = [q["sql"] for q in seen.captured_queries]
    assert not [sql for sql in read if sql.startswith('SELECT "plans_forecastwatch"')]
    assert bool([sql for sql in read if sql.startswith('SELECT "goals_debt"')]) == ("i_owe" in owed)

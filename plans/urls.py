from django.urls import path

from plans import api
from plans.forecast_api import CashForecastView, ForecastSettingsView

urlpatterns = [
    path("plans", api.PlanListView.as_view()),
    path("plans/fixed-expense-suggestions", api.FixedExpenseSuggestionsView.as_view()),
    path("plans/<int:plan_id>", api.PlanDetailView.as_view()),
    path("plans/<int:plan_id>/activate", api.PlanActivateView.as_view()),
    path("plans/<int:plan_id>/entries", api.PlanEntriesView.as_view()),
    path("plans/<int:plan_id>/rebalance", api.PlanRebalanceView.as_view()),
    path("plans/<int:plan_id>/dismiss-warning", api.PlanDismissWarningView.as_view()),
    path("forecast", CashForecastView.as_view()),
    path("forecast/settings", ForecastSettingsView.as_view()),
]

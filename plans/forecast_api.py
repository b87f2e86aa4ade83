"""REST: `GET /api/v1/forecast?days=N`, the projected spendable balance day by day (CONTRACT §9.1)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from plans.forecast_read import ForecastView, cash_forecast, forecast_cushion, forecast_cushion_set
from zeus.api.fields import MoneyField
from zeus.errors import ValidationFailed
from zeus.money import from_minor
from zeus.selectors import user_currency
from zeus.timeutil import user_today


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
        raise ValidationFailed("days is a whole number from 1 to 90.", fields={"days": ["From 1 to 90."]})
    return days


class CashForecastView(APIView):
    @extend_schema(
        operation_id="forecast",
        parameters=[
            OpenApiParameter(
                "days", int, description="1 to 90; default: through the day after the next expected income."
            )
        ],
        responses=inline_serializer(
            "Forecast",
            {
                "currency": serializers.CharField(),
                "accounts": serializers.IntegerField(help_text="Spendable accounts counted; 0: nothing to project."),
                "start_balance": serializers.CharField(),
                "days": serializers.ListField(child=serializers.DictField()),
                "lowest": serializers.DictField(allow_null=True),
                "cushion": serializers.CharField(),
                "shortfall": serializers.BooleanField(),
                "other_currencies": serializers.ListField(child=serializers.CharField()),
            },
        ),
    )
    def get(self, request):
        days = days_param(request.query_params.get("days"))
        view = cash_forecast(user=request.user, today=user_today(request.user), days=days)
        return Response(forecast_body(view))


class ForecastSettingsView(APIView):
    class InputSerializer(serializers.Serializer):
        cushion = MoneyField(help_text="The floor below which the daily watch warns; 0 or more.")

    def _body(self, user) -> dict:
        currency = user_currency(user)
        return {"cushion": str(from_minor(forecast_cushion(user=user), currency)), "currency": currency}

    @extend_schema(
        operation_id="forecast_settings",
        responses=inline_serializer(
            "ForecastSettings", {"cushion": serializers.CharField(), "currency": serializers.CharField()}
        ),
    )
    def get(self, request):
        return Response(self._body(request.user))

    @extend_schema(
        request=InputSerializer,
        responses=inline_serializer(
            "ForecastSettingsOut", {"cushion": serializers.CharField(), "currency": serializers.CharField()}
        ),
    )
    def patch(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        forecast_cushion_set(user=request.user, cushion=data.validated_data["cushion"])
        return Response(self._body(request.user))

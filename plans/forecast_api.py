"""REST: `GET /api/v1/forecast?days=N`, the projected spendable balance day by day (CONTRACT §9.1)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from plans.forecast_present import days_param, forecast_body
from plans.forecast_read import cash_forecast, forecast_cushion, forecast_cushion_set
from zeus.api.fields import MoneyField
from zeus.money import from_minor
from zeus.selectors import user_currency
from zeus.timeutil import user_today


class ForecastEventSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="income, bill, subscription, debt, fixed, card or spending.")
    label = serializers.CharField(help_text="What it is: the series, the person owed, the card.")
    amount = serializers.CharField(help_text="Signed: + comes in, - goes out.")


class ForecastDaySerializer(serializers.Serializer):
    date = serializers.DateField()
    balance = serializers.CharField()
    events = ForecastEventSerializer(many=True)


class ForecastLowestSerializer(serializers.Serializer):
    date = serializers.DateField()
    balance = serializers.CharField()


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
                "days": ForecastDaySerializer(many=True),
                "lowest": ForecastLowestSerializer(allow_null=True),
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

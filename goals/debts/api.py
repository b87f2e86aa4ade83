"""REST for debts and IOUs (`/api/v1/debts`): the debts with their schedule and standing, payments, and the
VietQR a friend scans to pay back."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets.ledger.shapes import rate_text
from goals.debts import qr, selectors, services
from goals.debts.models import Debt
from zeus.api.fields import MoneyField
from zeus.api.pagination import NewestFirstCursorPagination, paginate
from zeus.api.query import FilterChoiceField, query_filters
from zeus.timeutil import user_today


class ScheduleRowSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    due_on = serializers.DateField()
    principal = MoneyField()
    interest = MoneyField()
    amount = MoneyField()
    paid = MoneyField()
    remaining = MoneyField()
    currency = serializers.CharField()


class PaymentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    amount = MoneyField()
    currency = serializers.CharField()
    paid_on = serializers.DateField()
    transaction = serializers.IntegerField(allow_null=True)


class DebtSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=Debt.Direction.choices)
    counterparty = serializers.CharField()
    note = serializers.CharField(allow_blank=True)
    principal = MoneyField()
    currency = serializers.CharField()
    opened_on = serializers.DateField()
    interest_rate = serializers.CharField(help_text="Yearly %, as a decimal string.")
    interest_method = serializers.ChoiceField(choices=Debt.Method.choices)
    due_on = serializers.DateField(allow_null=True)
    installments = serializers.IntegerField(allow_null=True)
    first_due_on = serializers.DateField(allow_null=True)
    code = serializers.CharField(help_text="The transfer purpose (ZEUS + 8 characters) that settles it on arrival.")
    status = serializers.ChoiceField(choices=Debt.Status.choices)
    settled_on = serializers.DateField(allow_null=True)
    total = MoneyField(help_text="Principal plus the interest the schedule charges.")
    paid = MoneyField()
    outstanding = MoneyField()
    overdue = serializers.BooleanField()
    next_due = ScheduleRowSerializer(allow_null=True)
    schedule = ScheduleRowSerializer(many=True)
    payments = PaymentSerializer(many=True)

    def to_representation(self, view):
        debt, currency = view.debt, view.debt.currency

        def row(item):
            return {**item.__dict__, "currency": currency}

        flat = {
            **{field: getattr(debt, field) for field in ("id", "direction", "counterparty", "note", "principal")},
            **{field: getattr(debt, field) for field in ("opened_on", "interest_method", "due_on", "installments")},
            "currency": currency,
            "interest_rate": rate_text(debt.interest_rate),
            "first_due_on": debt.first_due_on,
            "code": debt.purpose,
            "status": debt.status,
            "settled_on": debt.settled_on,
            "total": view.total,
            "paid": view.paid,
            "outstanding": view.outstanding,
            "overdue": view.overdue,
            "next_due": row(view.next_due) if view.next_due else None,
            "schedule": [row(item) for item in view.schedule],
            "payments": [
                {
                    "id": p.id,
                    "amount": p.amount,
                    "currency": currency,
                    "paid_on": p.paid_on,
                    "transaction": p.transaction_id,
                }
                for p in view.payments
            ],
        }
        return super().to_representation(flat)


def _output(request, debt) -> dict:
    return DebtSerializer(selectors.debt_view(debt, today=user_today(request.user))).data


class _Terms(serializers.Serializer):
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)
    opened_on = serializers.CharField(max_length=10, required=False, help_text="YYYY-MM-DD; default today.")
    interest_rate = serializers.CharField(max_length=12, required=False, help_text="Yearly %, 0 to 100.")
    interest_method = serializers.ChoiceField(choices=Debt.Method.choices, required=False)
    due_on = serializers.CharField(max_length=10, required=False, allow_null=True)
    installments = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=600)
    first_due_on = serializers.CharField(max_length=10, required=False, allow_null=True)


class DebtListView(APIView):
    pagination_class = NewestFirstCursorPagination

    class InputSerializer(_Terms):
        direction = serializers.ChoiceField(choices=Debt.Direction.choices)
        counterparty = serializers.CharField(max_length=100)
        principal = MoneyField()
        currency = serializers.CharField(max_length=3, required=False)

    class FilterSerializer(serializers.Serializer):
        status = FilterChoiceField(Debt.Status.values)
        direction = FilterChoiceField(Debt.Direction.values)

    @extend_schema(
        operation_id="debts_list",
        parameters=[
            OpenApiParameter("status", str, enum=Debt.Status.values),
            OpenApiParameter("direction", str, enum=Debt.Direction.values),
        ],
        responses=DebtSerializer(many=True),
    )
    def get(self, request):
        filters = query_filters(self.FilterSerializer, request)
        today = user_today(request.user)
        return paginate(
            request=request,
            view=self,
            queryset=selectors.debt_list(
                user=request.user, status=filters.get("status"), direction=filters.get("direction")
            ),
            serializer_class=DebtSerializer,
            transform=lambda page: selectors.debt_views(page, today=today),
        )

    @extend_schema(request=InputSerializer, responses={201: DebtSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        debt = services.debt_create(user=request.user, **data.validated_data)
        return Response(_output(request, debt), status=status.HTTP_201_CREATED)


class DebtDetailView(APIView):
    class InputSerializer(_Terms):
        counterparty = serializers.CharField(max_length=100, required=False)
        principal = MoneyField(required=False)

    @extend_schema(responses=DebtSerializer)
    def get(self, request, debt_id: int):
        return Response(_output(request, selectors.debt_get(user=request.user, debt_id=debt_id)))

    @extend_schema(request=InputSerializer, responses=DebtSerializer)
    def patch(self, request, debt_id: int):
        data = self.InputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        debt = services.debt_update(user=request.user, debt_id=debt_id, **data.validated_data)
        return Response(_output(request, debt))

    @extend_schema(responses={204: None})
    def delete(self, request, debt_id: int):
        services.debt_delete(user=request.user, debt_id=debt_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DebtPaymentView(APIView):
    class InputSerializer(serializers.Serializer):
        amount = MoneyField()
        paid_on = serializers.CharField(max_length=10, required=False, help_text="YYYY-MM-DD; default today.")
        transaction = serializers.IntegerField(required=False, allow_null=True, help_text="A ledger row's id.")

    @extend_schema(request=InputSerializer, responses={201: DebtSerializer})
    def post(self, request, debt_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.debt_payment_record(user=request.user, debt_id=debt_id, **data.validated_data)
        debt = selectors.debt_get(user=request.user, debt_id=debt_id)
        return Response(_output(request, debt), status=status.HTTP_201_CREATED)


class DebtVietQRView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("account", int, required=True, description="A bank-account asset's id.")],
        responses=inline_serializer(
            "DebtVietQR",
            {
                "payload": serializers.CharField(),
                "svg": serializers.CharField(),
                "code": serializers.CharField(),
                "amount": serializers.CharField(),
            },
        ),
    )
    def get(self, request, debt_id: int):
        made = qr.debt_vietqr(user=request.user, debt_id=debt_id, account=request.query_params.get("account"))
        return Response({"payload": made.payload, "svg": made.svg, "code": made.code, "amount": str(made.amount)})

"""/api/v1/plans (docs/contract/rest.md): one APIView per route; the services do the work."""

from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets.ledger.shapes import ConversionSerializer, RateMissingSerializer
from plans import services
from plans.idempotency import idempotent
from plans.presenters import plan_to_dict
from plans.recurring import suggested_fixed_expenses
from plans.selectors import plan_detail, plan_details, plan_list, plan_state
from zeus.api.fields import MoneyField
from zeus.api.pagination import paginate
from zeus.selectors import user_currency
from zeus.timeutil import user_today


class FixedExpenseInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    amount = MoneyField()
    category = serializers.CharField(max_length=20)


class PlanInput(serializers.Serializer):
    month = serializers.CharField(max_length=7)
    expected_income = MoneyField()
    fixed_expenses = FixedExpenseInput(many=True, required=False)
    lifestyle_mode = serializers.CharField(max_length=10, required=False)
    primary_goal_id = serializers.IntegerField(required=False, allow_null=True)
    essential_spending = MoneyField(required=False, allow_null=True)
    reminder_time = serializers.CharField(max_length=5, required=False)
    reminders_enabled = serializers.BooleanField(required=False)
    # Create only: the user's recurring bills join the fixed expenses (docs/plans.md).
    prefill_fixed_from_recurring = serializers.BooleanField(required=False)


def _plain(values: dict) -> dict:
    """Serializer output as plain values; fixed-expense lines as plain dicts."""
    out = dict(values)
    if "fixed_expenses" in out:
        out["fixed_expenses"] = [dict(line) for line in out["fixed_expenses"]]
    return out


class _Money(serializers.CharField):
    pass


class _FixedExpenseOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    amount = _Money()
    category = serializers.CharField()


class _Allocations(serializers.Serializer):
    fixed = _Money()
    essential = _Money()
    goal = _Money()
    safe_to_spend = _Money()


class _Actuals(serializers.Serializer):
    fixed = _Money()
    essential = _Money()
    discretionary = _Money()
    goal = _Money()


class _Guide(serializers.Serializer):
    days_left = serializers.IntegerField()
    guide = _Money()
    spent_today = _Money()
    left_today = _Money()


class _BillDue(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.CharField()
    amount = _Money()
    due_on = serializers.DateField()


class _Warning(serializers.Serializer):
    state = serializers.ChoiceField(choices=["on_track", "spend_pace", "overspent", "goal_drift"])
    dismissed = serializers.BooleanField()
    bills_due = _BillDue(many=True)
    bills_due_total = _Money()
    bills_short = serializers.BooleanField()


class _Recommendation(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["cover_overspend", "tighten_spending", "boost_goal"])
    amount = _Money()
    daily_guide = _Money()


class PlanOutput(serializers.Serializer):
    """The plan as docs/contract/rest.md shows it; built by plans.presenters.plan_to_dict."""

    id = serializers.IntegerField()
    month = serializers.CharField()
    status = serializers.CharField()
    currency = serializers.CharField()
    lifestyle_mode = serializers.CharField()
    expected_income = _Money()
    fixed_expenses = _FixedExpenseOut(many=True)
    primary_goal_id = serializers.IntegerField(allow_null=True)
    reminders_enabled = serializers.BooleanField()
    reminder_time = serializers.CharField()
    allocations = _Allocations()
    actuals = _Actuals()
    daily_guide = _Guide()
    warning = _Warning()
    streak = serializers.IntegerField()
    recommendation = _Recommendation(allow_null=True)
    summary = serializers.JSONField(allow_null=True)
    converted = ConversionSerializer(
        many=True, help_text="The month's expenses in other currencies, converted at each row's day's rate."
    )
    rate_missing = RateMissingSerializer(
        many=True, help_text="The month's expenses no rate converts: left out of every figure, never at 1:1."
    )

    def to_representation(self, instance):
        return instance  # already the contract's shape


def _plan_response(request, plan_id, status_code=status.HTTP_200_OK) -> Response:
    today = user_today(request.user)
    found = plan_detail(user=request.user, plan_id=plan_id, today=today)
    state = plan_state(found.plan, today=today, ledger=found.ledger)
    return Response(plan_to_dict(state, bills=found.bills), status=status_code)


class FixedExpenseSuggestionsView(APIView):
    @extend_schema(
        responses=inline_serializer("FixedExpenseSuggestions", {"fixed_expenses": FixedExpenseInput(many=True)})
    )
    def get(self, request):
        lines = suggested_fixed_expenses(user=request.user, currency=user_currency(request.user))
        return Response({"fixed_expenses": lines})


class PlanListView(APIView):
    @extend_schema(responses=PlanOutput(many=True))
    def get(self, request):
        today = user_today(request.user)

        def shown(page: list) -> list[dict]:
            return [
                plan_to_dict(plan_state(d.plan, today=today, ledger=d.ledger), bills=d.bills)
                for d in plan_details(user=request.user, plans=page, today=today)
            ]

        return paginate(
            request=request,
            view=self,
            queryset=plan_list(user=request.user),
            transform=shown,
            ordering=("-month", "-id"),
        )

    @extend_schema(request=PlanInput, responses={201: PlanOutput})
    @idempotent
    def post(self, request):
        data = PlanInput(data=request.data)
        data.is_valid(raise_exception=True)
        plan = services.plan_create(user=request.user, **_plain(data.validated_data))
        return _plan_response(request, plan.id, status.HTTP_201_CREATED)


class PlanDetailView(APIView):
    @extend_schema_serializer(component_name="PlanPatchInput")
    class InputSerializer(PlanInput):
        month = serializers.CharField(max_length=7, required=False)
        expected_income = MoneyField(required=False)
        prefill_fixed_from_recurring = None  # create only

    @extend_schema(responses=PlanOutput)
    def get(self, request, plan_id: int):
        return _plan_response(request, plan_id)

    @extend_schema(request=InputSerializer, responses=PlanOutput)
    def patch(self, request, plan_id: int):
        data = self.InputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.plan_update(user=request.user, plan_id=plan_id, **_plain(data.validated_data))
        return _plan_response(request, plan_id)

    @extend_schema(responses={204: None})
    def delete(self, request, plan_id: int):
        services.plan_delete(user=request.user, plan_id=plan_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlanActivateView(APIView):
    @extend_schema(request=None, responses=PlanOutput)
    @idempotent
    def post(self, request, plan_id: int):
        services.plan_activate(user=request.user, plan_id=plan_id)
        return _plan_response(request, plan_id)


class PlanEntriesView(APIView):
    @extend_schema_serializer(component_name="PlanEntryInput")
    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=["discretionary", "goal"])
        amount = MoneyField()
        note = serializers.CharField(max_length=200, required=False, allow_blank=True)
        category = serializers.CharField(
            max_length=30,
            required=False,
            allow_blank=True,
            help_text="Spending only: an expense category (or `c:<id>`, one of yours); `other` when left out.",
        )
        asset_id = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="Spending only: one of your open spending accounts in the plan's currency; the default one "
            "(cash first, then e-wallet, bank account, credit card) when left out.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: PlanOutput},
        description="Spending becomes a manual expense in the ledger (it shows in /transactions and counts once in "
        "the plan's actuals); a goal contribution adds to the primary goal. Answers the plan.",
    )
    @idempotent
    def post(self, request, plan_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.plan_entry_create(user=request.user, plan_id=plan_id, **data.validated_data)
        return _plan_response(request, plan_id, status.HTTP_201_CREATED)


class PlanRebalanceView(APIView):
    @extend_schema(request=None, responses=PlanOutput)
    @idempotent
    def post(self, request, plan_id: int):
        services.plan_rebalance(user=request.user, plan_id=plan_id)
        return _plan_response(request, plan_id)


class PlanDismissWarningView(APIView):
    @extend_schema(request=None, responses=PlanOutput)
    @idempotent
    def post(self, request, plan_id: int):
        services.plan_dismiss_warning(user=request.user, plan_id=plan_id)
        return _plan_response(request, plan_id)

"""REST for budgets (monthly limits with this month's spending) and goals (with derived progress)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets import categories
from assets.ledger.shapes import ConversionSerializer, RateMissingSerializer
from goals import selectors, services
from goals.models import Goal
from zeus.api.fields import MoneyField
from zeus.api.pagination import NewestFirstCursorPagination, paginate
from zeus.api.query import FilterChoiceField, query_filters
from zeus.timeutil import user_today


class BudgetSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="budget.id")
    category = serializers.ChoiceField(source="budget.category", choices=categories.EXPENSE_CHOICES)
    amount = MoneyField(help_text="The monthly limit.")
    currency = serializers.CharField()
    spent = MoneyField(help_text="Spent in this category in the user's current month.")
    remaining = MoneyField(help_text="amount - spent; negative when over budget.")
    converted = ConversionSerializer(
        many=True, help_text="What of `spent` was converted from other currencies, at each row's day's rate."
    )
    rate_missing = RateMissingSerializer(
        many=True, help_text="This category's spending in currencies no rate converts: left out of `spent`."
    )

    def to_representation(self, status_):
        # MoneyField reads the currency beside the amount, so present the status flat.
        budget = status_.budget
        flat = {
            "budget": budget,
            "amount": budget.amount,
            "currency": budget.currency,
            "spent": status_.spent,
            "remaining": status_.remaining,
            "converted": status_.converted,
            "rate_missing": status_.rate_missing,
        }
        return super().to_representation(flat)


def _budget_output(request, budget) -> dict:
    (row,) = selectors.budget_statuses(user=request.user, budgets=[budget])
    return BudgetSerializer(row).data


class BudgetListView(APIView):
    pagination_class = NewestFirstCursorPagination

    class InputSerializer(serializers.Serializer):
        category = serializers.ChoiceField(choices=categories.EXPENSE_CHOICES)
        amount = MoneyField()
        currency = serializers.CharField(max_length=3, required=False)

    @extend_schema(operation_id="budgets_list", responses=BudgetSerializer(many=True))
    def get(self, request):
        return paginate(
            request=request,
            view=self,
            queryset=selectors.budget_list(user=request.user),
            serializer_class=BudgetSerializer,
            transform=lambda page: selectors.budget_statuses(user=request.user, budgets=page),
        )

    @extend_schema(request=InputSerializer, responses={201: BudgetSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        budget = services.budget_create(user=request.user, **data.validated_data)
        return Response(_budget_output(request, budget), status=status.HTTP_201_CREATED)


class BudgetDetailView(APIView):
    class InputSerializer(serializers.Serializer):
        category = serializers.ChoiceField(choices=categories.EXPENSE_CHOICES, required=False)
        amount = MoneyField(required=False)

    @extend_schema(request=InputSerializer, responses=BudgetSerializer)
    def patch(self, request, budget_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        budget = services.budget_update(user=request.user, budget_id=budget_id, **data.validated_data)
        return Response(_budget_output(request, budget))

    @extend_schema(responses={204: None})
    def delete(self, request, budget_id: int):
        services.budget_delete(user=request.user, budget_id=budget_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GoalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Goal.Kind.choices)
    target_amount = MoneyField()
    current_amount = MoneyField()
    currency = serializers.CharField()
    deadline = serializers.DateField()
    status = serializers.ChoiceField(choices=Goal.Status.choices)
    progress_pct = serializers.DecimalField(max_digits=4, decimal_places=1, help_text="0.0 to 100.0.")
    monthly_needed = MoneyField(help_text="To put aside each month from now to reach the target by the deadline.")
    on_track = serializers.BooleanField(help_text="At or above a straight line from the start to the deadline.")

    def to_representation(self, pair):
        # The goal and its derived figures side by side, so MoneyField finds the currency beside each amount.
        goal, progress = pair
        flat = {field: getattr(goal, field) for field in self.fields if hasattr(goal, field)}
        flat.update(
            progress_pct=progress.progress_pct, monthly_needed=progress.monthly_needed, on_track=progress.on_track
        )
        return super().to_representation(flat)


def _with_progress(user, goals) -> list:
    today = user_today(user)
    return [(goal, selectors.goal_progress_of(goal, today=today)) for goal in goals]


def _goal_output(request, goal) -> dict:
    return GoalSerializer(_with_progress(request.user, [goal])[0]).data


_DEADLINE_HELP = "YYYY-MM-DD, or a span from today such as '10 years' or '18 months'."


class GoalListView(APIView):
    pagination_class = NewestFirstCursorPagination

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100)
        kind = serializers.ChoiceField(choices=Goal.Kind.choices)
        target_amount = MoneyField()
        deadline = serializers.CharField(max_length=40, help_text=_DEADLINE_HELP)
        current_amount = MoneyField(required=False)
        currency = serializers.CharField(max_length=3, required=False)

    class FilterSerializer(serializers.Serializer):
        status = FilterChoiceField([*Goal.Status.values, "all"])

    @extend_schema(
        operation_id="goals_list",
        parameters=[OpenApiParameter("status", str, enum=["active", "achieved", "all"], description="Default all.")],
        responses=GoalSerializer(many=True),
    )
    def get(self, request):
        return paginate(
            request=request,
            view=self,
            queryset=selectors.goal_list(
                user=request.user, status=query_filters(self.FilterSerializer, request).get("status")
            ),
            serializer_class=GoalSerializer,
            transform=lambda page: _with_progress(request.user, page),
        )

    @extend_schema(request=InputSerializer, responses={201: GoalSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        goal = services.goal_create(user=request.user, **data.validated_data)
        return Response(_goal_output(request, goal), status=status.HTTP_201_CREATED)


class GoalDetailView(APIView):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, required=False)
        kind = serializers.ChoiceField(choices=Goal.Kind.choices, required=False)
        target_amount = MoneyField(required=False)
        current_amount = MoneyField(required=False)
        deadline = serializers.CharField(max_length=40, required=False, help_text=_DEADLINE_HELP)

    @extend_schema(responses=GoalSerializer)
    def get(self, request, goal_id: int):
        return Response(_goal_output(request, selectors.goal_get(user=request.user, goal_id=goal_id)))

    @extend_schema(request=InputSerializer, responses=GoalSerializer)
    def patch(self, request, goal_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        goal = services.goal_update(user=request.user, goal_id=goal_id, **data.validated_data)
        return Response(_goal_output(request, goal))

    @extend_schema(responses={204: None})
    def delete(self, request, goal_id: int):
        services.goal_delete(user=request.user, goal_id=goal_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

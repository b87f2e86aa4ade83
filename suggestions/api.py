"""`/api/v1/suggestions` (list, dismiss, complete) and `/api/v1/recurring` (list, dismiss); docs/contract/rest.md."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from suggestions.models import RecurringSeries, Suggestion
from suggestions.recurring.selectors import recurring_list
from suggestions.recurring.services import recurring_dismiss
from suggestions.selectors import suggestion_list
from suggestions.services import suggestion_complete, suggestion_dismiss
from zeus.api.fields import MoneyField
from zeus.api.pagination import paginate
from zeus.api.query import FilterChoiceField, query_filters


class SuggestionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    # In the reader's language, made from the insight's facts when read (Suggestion.words).
    title = serializers.CharField(source="words.title")
    body = serializers.CharField(source="words.body")
    cta_url = serializers.CharField(source="words.cta_url")
    prompt = serializers.CharField(source="words.prompt")
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class SuggestionListView(APIView):
    OutputSerializer = SuggestionOutputSerializer

    class FilterSerializer(serializers.Serializer):
        status = FilterChoiceField([*Suggestion.Status.values, "all"])

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=["active", "dismissed", "completed", "all"])],
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        qs = suggestion_list(
            user=request.user, status=query_filters(self.FilterSerializer, request).get("status") or "active"
        )
        return paginate(request=request, view=self, queryset=qs, serializer_class=self.OutputSerializer)


class SuggestionDismissView(APIView):
    OutputSerializer = SuggestionOutputSerializer

    @extend_schema(request=None, responses=OutputSerializer)
    def post(self, request, suggestion_id: int):
        return Response(self.OutputSerializer(suggestion_dismiss(user=request.user, suggestion_id=suggestion_id)).data)


class SuggestionCompleteView(APIView):
    OutputSerializer = SuggestionOutputSerializer

    @extend_schema(request=None, responses=OutputSerializer)
    def post(self, request, suggestion_id: int):
        suggestion = suggestion_complete(user=request.user, suggestion_id=suggestion_id)
        return Response(self.OutputSerializer(suggestion).data)


class RecurringOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    merchant = serializers.CharField()
    kind = serializers.ChoiceField(choices=RecurringSeries.Kind.choices)
    amount = MoneyField()
    currency = serializers.CharField()
    interval = serializers.ChoiceField(choices=RecurringSeries.Interval.choices)
    last_on = serializers.DateField()
    next_on = serializers.DateField()
    category = serializers.CharField()
    status = serializers.ChoiceField(choices=RecurringSeries.Status.choices)


class RecurringListView(APIView):
    OutputSerializer = RecurringOutputSerializer

    class FilterSerializer(serializers.Serializer):
        status = FilterChoiceField([*RecurringSeries.Status.values, "all"])

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=["active", "ended", "dismissed", "all"]),
            OpenApiParameter("due_within_days", int, description="Only series due from today through N days."),
        ],
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        qs = recurring_list(
            user=request.user,
            status=query_filters(self.FilterSerializer, request).get("status") or "active",
            due_within_days=request.query_params.get("due_within_days"),
        )
        # Soonest charge first: what a list of upcoming money is for (docs/recurring.md).
        return paginate(
            request=request, view=self, queryset=qs, serializer_class=self.OutputSerializer, ordering=("next_on", "id")
        )


class RecurringDismissView(APIView):
    OutputSerializer = RecurringOutputSerializer

    @extend_schema(request=None, responses=OutputSerializer)
    def post(self, request, series_id: int):
        return Response(self.OutputSerializer(recurring_dismiss(user=request.user, series_id=series_id)).data)

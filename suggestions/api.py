"""`/api/v1/suggestions`: list, dismiss, complete (docs/contract/rest.md)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from suggestions.selectors import suggestion_list
from suggestions.services import suggestion_complete, suggestion_dismiss
from zeus.api.pagination import paginate


class SuggestionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()
    body = serializers.CharField()
    cta_url = serializers.CharField()
    prompt = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class SuggestionListView(APIView):
    OutputSerializer = SuggestionOutputSerializer

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=["active", "dismissed", "completed", "all"])],
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        qs = suggestion_list(user=request.user, status=request.query_params.get("status") or "active")
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

"""The chat part of the REST API: threads, history pages, and the personal provider key."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from chat.selectors import (
    CONTEXT_LIMIT,
    message_page,
    parse_page_limit,
    provider_key_exists,
    sent_to_model_get,
    thread_get,
    thread_list,
)
from chat.services import provider_key_clear, provider_key_set, thread_create
from zeus.api.pagination import paginate


class ThreadOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    title = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    last_activity_at = serializers.DateTimeField()


class ThreadListView(APIView):
    @extend_schema(responses=ThreadOutputSerializer(many=True))
    def get(self, request):
        return paginate(
            request=request,
            view=self,
            queryset=thread_list(user=request.user),
            serializer_class=ThreadOutputSerializer,
            ordering=("-last_activity_at", "-created_at"),
        )

    @extend_schema(request=None, responses={201: ThreadOutputSerializer})
    def post(self, request):
        thread = thread_create(user=request.user)
        return Response(ThreadOutputSerializer(thread).data, status=status.HTTP_201_CREATED)


class MessageListView(APIView):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        role = serializers.CharField()
        parts = serializers.JSONField()
        metadata = serializers.JSONField()
        created_at = serializers.DateTimeField()

    @extend_schema(
        parameters=[OpenApiParameter("before", str), OpenApiParameter("limit", int)],
        responses=inline_serializer(
            "MessagePage",
            {
                "messages": OutputSerializer(many=True),
                "has_more": serializers.BooleanField(),
                "prev_cursor": serializers.CharField(allow_null=True),
                "context_limit": serializers.IntegerField(),
            },
        ),
    )
    def get(self, request, thread_id):
        thread = thread_get(user=request.user, thread_id=thread_id)
        limit = parse_page_limit(request.query_params.get("limit"))
        page = message_page(thread=thread, before=request.query_params.get("before") or None, limit=limit)
        return Response(
            {
                "messages": self.OutputSerializer(page.messages, many=True).data,
                "has_more": page.has_more,
                "prev_cursor": page.prev_cursor,
                "context_limit": CONTEXT_LIMIT,
            }
        )


class SentToModelView(APIView):
    """What the turn of one reply sent to the model provider (CONTRACT §10; docs/contract/rest.md)."""

    class OutputSerializer(serializers.Serializer):
        message_id = serializers.IntegerField(source="message.id")
        sent_at = serializers.DateTimeField(source="message.created_at")
        model = serializers.SerializerMethodField()
        facts = serializers.CharField(source="content.facts", allow_null=True)
        router = serializers.CharField(source="content.router", allow_null=True)
        messages = serializers.JSONField(source="content.messages")
        omitted_messages = serializers.IntegerField(source="content.omitted_messages")

        def get_model(self, sent) -> str | None:
            return sent.message.metadata.get("model")

    @extend_schema(responses=OutputSerializer)
    def get(self, request, thread_id, message_id):
        thread = thread_get(user=request.user, thread_id=thread_id)
        return Response(self.OutputSerializer(sent_to_model_get(thread=thread, message_id=message_id)).data)


_HAS_KEY = inline_serializer("ProviderKeyState", {"has_key": serializers.BooleanField()})


class ProviderKeyView(APIView):
    """Write-only: the key is never returned, only whether one is stored."""

    class InputSerializer(serializers.Serializer):
        api_key = serializers.CharField(max_length=300, trim_whitespace=True)

    @extend_schema(responses=_HAS_KEY)
    def get(self, request):
        return Response({"has_key": provider_key_exists(user=request.user)})

    @extend_schema(request=InputSerializer, responses=_HAS_KEY)
    def put(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        provider_key_set(user=request.user, api_key=data.validated_data["api_key"])
        return Response({"has_key": True})

    @extend_schema(request=None, responses=_HAS_KEY)
    def delete(self, request):
        provider_key_clear(user=request.user)
        return Response({"has_key": False})

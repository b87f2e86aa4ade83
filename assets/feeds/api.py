"""REST for SePay connections (`/api/v1/integrations/sepay`)."""

from django.conf import settings
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets.feeds import selectors, services
from assets.models import SepayConnection
from zeus.api.pagination import paginate


def webhook_url(request, connection, *, provider: str = "sepay") -> str:
    """Absolute: ZEUS_PUBLIC_URL when set (behind a proxy the request's host is not what the provider reaches).
    `provider` names the route: sepay or casso."""
    path = f"/api/v1/integrations/{provider}/webhook/{connection.token}"
    base = settings.ZEUS_PUBLIC_URL.rstrip("/")
    return f"{base}{path}" if base else request.build_absolute_uri(path)


class ConnectionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    auth = serializers.ChoiceField(choices=SepayConnection.Auth.choices)
    webhook_url = serializers.SerializerMethodField()
    last_delivery_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()

    def get_webhook_url(self, connection) -> str:
        return webhook_url(self.context["request"], connection)


class ConnectionListView(APIView):
    class InputSerializer(serializers.Serializer):
        auth = serializers.ChoiceField(choices=SepayConnection.Auth.choices)
        name = serializers.CharField(max_length=100, required=False, allow_blank=True)

    @extend_schema(operation_id="sepay_connections_list", responses=ConnectionSerializer(many=True))
    def get(self, request):
        return paginate(
            request=request,
            view=self,
            queryset=selectors.sepay_connection_list(user=request.user),
            serializer_class=ConnectionSerializer,
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer(
                "SepayConnectionCreated",
                {
                    "id": serializers.IntegerField(),
                    "name": serializers.CharField(),
                    "auth": serializers.CharField(),
                    "webhook_url": serializers.URLField(),
                    "secret": serializers.CharField(help_text="Shown in this answer only."),
                    "created_at": serializers.DateTimeField(),
                },
            )
        },
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        new = services.sepay_connection_create(user=request.user, **data.validated_data)
        body = ConnectionSerializer(new.connection, context={"request": request}).data
        body.pop("last_delivery_at")
        body["secret"] = new.secret
        return Response(body, status=status.HTTP_201_CREATED)


class ConnectionDetailView(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request, connection_id: int):
        services.sepay_connection_delete(user=request.user, connection_id=connection_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

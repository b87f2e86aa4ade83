"""Casso (§6.4): REST for connections (`/api/v1/integrations/casso`) and the URL Casso posts to. The webhook
is a plain Django view like SePay's: the URL's token names the connection, the signature authenticates the
delivery. Answers: 200 {"success": true} for a new or already-known id, 401 for an unknown URL or a missing or
wrong signature, 400 with the error shape for a malformed payload."""

import time

from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets.feeds import casso, casso_services, reconcile
from assets.feeds.api import webhook_url
from assets.feeds.payload import InvalidPayload
from assets.feeds.signing import Unauthorized
from assets.feeds.webhook import unknown_connection
from zeus.api.pagination import paginate


class CassoConnectionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    webhook_url = serializers.SerializerMethodField()
    reconciles = serializers.SerializerMethodField(help_text="Whether an API key lets the daily pull run.")
    last_delivery_at = serializers.DateTimeField(allow_null=True)
    last_pulled_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()

    def get_webhook_url(self, connection) -> str:
        return webhook_url(self.context["request"], connection, provider="casso")

    def get_reconciles(self, connection) -> bool:
        return bool(connection.api_key_encrypted)


class CassoConnectionListView(APIView):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, required=False, allow_blank=True)
        api_key = serializers.CharField(max_length=500, required=False, allow_blank=True)

    @extend_schema(operation_id="casso_connections_list", responses=CassoConnectionSerializer(many=True))
    def get(self, request):
        return paginate(
            request=request,
            view=self,
            queryset=casso_services.casso_connection_list(user=request.user),
            serializer_class=CassoConnectionSerializer,
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer(
                "CassoConnectionCreated",
                {
                    "id": serializers.IntegerField(),
                    "name": serializers.CharField(),
                    "webhook_url": serializers.URLField(),
                    "secret": serializers.CharField(help_text="Casso's secure key; shown in this answer only."),
                    "created_at": serializers.DateTimeField(),
                },
            )
        },
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        connection, secret = casso_services.casso_connection_create(user=request.user, **data.validated_data)
        body = CassoConnectionSerializer(connection, context={"request": request}).data
        body["secret"] = secret
        return Response(body, status=status.HTTP_201_CREATED)


class CassoConnectionDetailView(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request, connection_id: int):
        casso_services.casso_connection_delete(user=request.user, connection_id=connection_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FeedApiKeyView(APIView):
    """`PUT /api/v1/integrations/{sepay|casso}/{id}/api-key` `{"api_key"}`: the provider's API key, kept
    encrypted and never returned, so the daily reconciliation pulls this connection ("" stops it)."""

    provider = "sepay"

    class InputSerializer(serializers.Serializer):
        api_key = serializers.CharField(max_length=500, allow_blank=True)

    @extend_schema(request=InputSerializer, responses={204: None})
    def put(self, request, connection_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reconcile.feed_api_key_set(
            user=request.user, provider=self.provider, connection_id=connection_id, **data.validated_data
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


def _error(status_code: int, code: str, message: str, fields: dict | None = None) -> JsonResponse:
    body = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return JsonResponse({"error": body}, status=status_code)


@csrf_exempt
@require_POST
def casso_webhook(request, token: str):
    connection = casso_services.casso_connection_by_token(token)
    if connection is None:
        return unknown_connection(token)
    secret = casso_services.casso_connection_secret(connection)
    if secret is None:
        return _error(401, "CONNECTION_SECRET_LOST", "Reconnect Casso: this connection's secret is unreadable.")
    try:
        data = casso.parse_json(request.body)
    except InvalidPayload as exc:
        # Unsigned garbage is answered as unauthenticated: nothing about the body is trusted before the key.
        if not request.headers.get("X-Casso-Signature"):
            return _error(401, "SIGNATURE_REQUIRED", "Send X-Casso-Signature.")
        return _error(400, exc.code, exc.message, exc.fields)
    try:
        casso.check_signature(secret, request.headers.get("X-Casso-Signature", ""), data, now=time.time())
    except Unauthorized as exc:
        return _error(401, exc.code, exc.message)
    try:
        payment = casso.transaction(data["data"], now=timezone.now())
    except InvalidPayload as exc:
        return _error(400, exc.code, exc.message, exc.fields)
    casso_services.casso_delivery_land(connection=connection, payment=payment)
    return JsonResponse({"success": True})

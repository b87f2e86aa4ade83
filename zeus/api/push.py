"""/api/v1/push/subscriptions (docs/push.md): a browser's Web Push subscription, kept or removed."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from zeus.push import (
    push_enabled,
    push_public_key,
    push_subscription_delete,
    push_subscription_list,
    push_subscription_save,
)


class _Keys(serializers.Serializer):
    p256dh = serializers.CharField(max_length=100)
    auth = serializers.CharField(max_length=50)


class SubscriptionInput(serializers.Serializer):
    """What the browser's PushSubscription.toJSON() gives (expirationTime is ignored)."""

    endpoint = serializers.CharField(max_length=1000)
    keys = _Keys()


class UnsubscribeInput(serializers.Serializer):
    endpoint = serializers.CharField(max_length=1000)


class _Subscription(serializers.Serializer):
    endpoint = serializers.CharField()
    created_at = serializers.DateTimeField()


class PushSubscriptionsView(APIView):
    @extend_schema(
        responses=inline_serializer(
            "PushState",
            {
                "enabled": serializers.BooleanField(),
                "public_key": serializers.CharField(help_text="The VAPID applicationServerKey; empty when off."),
                "subscriptions": _Subscription(many=True),
            },
        ),
        description="Whether the site pushes, the key a browser subscribes with, and your subscribed browsers.",
    )
    def get(self, request):
        return Response(
            {
                "enabled": push_enabled(),
                "public_key": push_public_key(),
                "subscriptions": [
                    {"endpoint": s.endpoint, "created_at": s.created_at.isoformat()}
                    for s in push_subscription_list(user=request.user)
                ],
            }
        )

    @extend_schema(
        request=SubscriptionInput,
        responses={201: _Subscription},
        description="Subscribe this browser: each new inbox notification is pushed to it. 409 PUSH_DISABLED when "
        "the site has no VAPID keys.",
    )
    def post(self, request):
        data = SubscriptionInput(data=request.data)
        data.is_valid(raise_exception=True)
        made = push_subscription_save(user=request.user, **data.validated_data)
        return Response(
            {"endpoint": made.endpoint, "created_at": made.created_at.isoformat()}, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        request=UnsubscribeInput, responses={204: None}, description="Unsubscribe a browser of yours (404 otherwise)."
    )
    def delete(self, request):
        data = UnsubscribeInput(data=request.data)
        data.is_valid(raise_exception=True)
        push_subscription_delete(user=request.user, endpoint=data.validated_data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)

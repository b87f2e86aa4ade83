"""`/api/v1/auth/...`: a device's token for a username (or e-mail), password and second factor, and the
device tokens themselves (docs/contract/rest.md, "Authentication")."""

from django.contrib.auth import authenticate, user_logged_in
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from zeus.account_data.erasure import erasure_refuse_sign_in
from zeus.accounts.selectors import device_token_list
from zeus.accounts.services import NAME_MAX, device_token_create, device_token_revoke, second_factor_check
from zeus.errors import ZeusError


class DeviceTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


class IssuedTokenSerializer(DeviceTokenSerializer):
    token = serializers.CharField(help_text="The key, shown this once: send it as `Authorization: Token <key>`.")


class TokenView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=254, help_text="The username or the account's e-mail address.")
        password = serializers.CharField(max_length=128, trim_whitespace=False)
        code = serializers.CharField(
            max_length=64, required=False, help_text="A code of the authenticator app, or a recovery code."
        )
        name = serializers.CharField(
            max_length=NAME_MAX, required=False, help_text="What the device is called on /settings/security."
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            200: IssuedTokenSerializer,
            400: OpenApiResponse(description="`INVALID_CREDENTIALS` or `VALIDATION_ERROR`."),
            401: OpenApiResponse(description="`MFA_REQUIRED`: the account has a second factor; send its `code`."),
            429: OpenApiResponse(description="`RATE_LIMITED`: too many failed attempts (`Retry-After`)."),
        },
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        # The HttpRequest, not DRF's wrapper: django-axes marks a locked-out request on the object its
        # middleware sees, which then answers 429 (zeus/lockout.py).
        user = authenticate(request._request, username=values["username"], password=values["password"])
        if user is None:
            raise ZeusError(_("Unable to log in with those credentials."), code="INVALID_CREDENTIALS")
        erasure_refuse_sign_in(user=user)
        second_factor_check(user=user, code=values.get("code"))
        # A token issued is a sign-in: the failure count starts again and last_login moves, as for the page.
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        name = values.get("name") or request.headers.get("User-Agent", "")[:NAME_MAX] or _("API client")
        issued = device_token_create(user=user, name=name)
        body = {**DeviceTokenSerializer(issued.token).data, "token": issued.key}
        return Response(body)


class DeviceTokenListView(APIView):
    @extend_schema(responses=DeviceTokenSerializer(many=True))
    def get(self, request):
        return Response(DeviceTokenSerializer(device_token_list(user=request.user), many=True).data)


class DeviceTokenView(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, token_id: int):
        device_token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

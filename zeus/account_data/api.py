"""`/api/v1/account/...`: export, import, erasure and its cancellation (docs/contract/account-data.md)."""

from django.contrib.auth import authenticate, logout
from django.http import FileResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from zeus.account_data.erasure import account_erasure_cancel, account_erasure_request
from zeus.account_data.restore import MAX_ARCHIVE_BYTES, ImportRejected, account_import
from zeus.account_data.services import account_export_request
from zeus.accounts.services import second_factor_check
from zeus.errors import NotFound, ZeusError
from zeus.models import AccountExport


class Gone(ZeusError):
    status = 410
    code = "GONE"


class Forbidden(ZeusError):
    status = 403
    code = "PERMISSION_DENIED"


class ExportSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=AccountExport.Status.choices)
    size = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)
    download_url = serializers.SerializerMethodField()

    def get_download_url(self, export) -> str | None:
        if export.status != AccountExport.Status.READY or not export.file:
            return None
        return f"/api/v1/account/exports/{export.id}/download"


class AccountExportView(APIView):
    @extend_schema(request=None, responses={202: ExportSerializer})
    def post(self, request):
        export = account_export_request(user=request.user)
        return Response(ExportSerializer(export).data, status=status.HTTP_202_ACCEPTED)


class AccountExportListView(APIView):
    @extend_schema(responses=inline_serializer("ExportList", {"results": ExportSerializer(many=True)}))
    def get(self, request):
        exports = AccountExport.objects.filter(user=request.user).order_by("-created_at")[:50]
        return Response({"results": ExportSerializer(exports, many=True).data})


def export_file(*, user, export_id) -> FileResponse:
    """The export's ZIP for its owner: 404 for anyone else, 409 while it is being built, 410 once expired."""
    export = AccountExport.objects.filter(user=user, id=export_id).first()
    if export is None:
        raise NotFound(_("No such export."))
    if (export.expires_at is not None and export.expires_at <= timezone.now()) or (
        export.status == AccountExport.Status.READY and not export.file
    ):
        raise Gone(_("This export has expired; ask for a new one."), code="EXPORT_EXPIRED")
    if export.status != AccountExport.Status.READY:
        raise ZeusError(_("This export is not ready."), code="EXPORT_NOT_READY")
    name = f"zeus-export-{timezone.localdate(export.finished_at):%Y-%m-%d}.zip"
    return FileResponse(export.file.open("rb"), as_attachment=True, filename=name, content_type="application/zip")


class AccountExportDownloadView(APIView):
    @extend_schema(responses={(200, "application/zip"): bytes})
    def get(self, request, export_id):
        return export_file(user=request.user, export_id=export_id)


class AccountImportView(APIView):
    max_body_bytes = MAX_ARCHIVE_BYTES + 1024 * 1024  # the archive and its multipart envelope (zeus.middleware)
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": inline_serializer("AccountImport", {"file": serializers.FileField()})},
        responses={201: inline_serializer("AccountImported", {"records": serializers.DictField()})},
    )
    def post(self, request):
        upload = request.FILES.get("file")
        if upload is None:
            raise ImportRejected(_("Send the export's ZIP as the multipart field `file`."), code="FILE_REQUIRED")
        counts = account_import(user=request.user, upload=upload)
        return Response({"records": counts}, status=status.HTTP_201_CREATED)


class ErasureSerializer(serializers.Serializer):
    status = serializers.CharField()
    requested_at = serializers.DateTimeField()
    erase_after = serializers.DateTimeField()


def confirm_identity(request, user, password: str, code: str | None) -> None:
    """The password (through the sign-in backends, so failures count toward the lockout) and the second factor."""
    # The HttpRequest, not DRF's wrapper: django-axes marks a locked-out request on the object its middleware sees.
    http_request = getattr(request, "_request", request)
    if authenticate(http_request, username=user.get_username(), password=password) is None:
        raise Forbidden(_("That password is not right."), code="WRONG_PASSWORD")
    second_factor_check(user=user, code=code)


class AccountDeleteView(APIView):
    class InputSerializer(serializers.Serializer):
        password = serializers.CharField(max_length=128, trim_whitespace=False)
        code = serializers.CharField(max_length=64, required=False, allow_blank=True)

    @extend_schema(request=InputSerializer, responses={202: ErasureSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        confirm_identity(request, request.user, data.validated_data["password"], data.validated_data.get("code"))
        erasure = account_erasure_request(user=request.user, now=timezone.now())
        if request.auth is None:  # a session: this one ends with the others
            logout(request._request)
        body = {"status": "scheduled", "requested_at": erasure.requested_at, "erase_after": erasure.erase_after}
        return Response(ErasureSerializer(body).data, status=status.HTTP_202_ACCEPTED)


class AccountDeleteCancelView(APIView):
    """From the session of a sign-in after the request, or with the credentials themselves (the token API
    refuses a locked account, so an API client has no token to send)."""

    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150, required=False)
        password = serializers.CharField(max_length=128, trim_whitespace=False, required=False)
        code = serializers.CharField(max_length=64, required=False, allow_blank=True)

    @extend_schema(
        request=InputSerializer, responses=inline_serializer("ErasureCancelled", {"status": serializers.CharField()})
    )
    def post(self, request):
        user = request.user if request.user.is_authenticated else self._credentials(request)
        if not account_erasure_cancel(user=user):
            raise NotFound(_("No erasure is scheduled for this account."), code="NO_ERASURE_PENDING")
        request.session.pop("zeus_erasure_pending", None)
        return Response({"status": "cancelled"})

    def _credentials(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if not values.get("username") or not values.get("password"):
            raise ZeusError(_("Sign in, or send username and password."), code="CREDENTIALS_REQUIRED")
        user = authenticate(request._request, username=values["username"], password=values["password"])
        if user is None:
            raise ZeusError(_("Unable to log in with those credentials."), code="INVALID_CREDENTIALS")
        second_factor_check(user=user, code=values.get("code"))
        return user

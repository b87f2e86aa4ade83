"""REST for captures (`/api/v1/captures`): a receipt, a transfer screenshot or a PDF statement posted as the
multipart field `file` becomes drafts read by the model (each confirmed or discarded through
/api/v1/bank-texts/{id}); a statement file (XLSX, CSV, OFX…) waits for `/import`. The file is served to its
owner only."""

from django.http import FileResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from assets.banktexts.api import DraftSerializer
from assets.captures import services
from assets.captures.files import MAX_BODY_BYTES, CaptureRejected
from assets.captures.models import Capture
from zeus.errors import NotFound


class CaptureSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Capture.Kind.choices)
    media_type = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    size = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Capture.Status.choices)
    read_as = serializers.CharField(help_text="receipt, transfer or statement, as the file was read.")
    imported = serializers.IntegerField(
        allow_null=True, help_text="A statement file: the rows its import landed (or, pending, would land)."
    )
    skipped = serializers.IntegerField(allow_null=True)
    file_url = serializers.SerializerMethodField()
    drafts = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_file_url(self, capture) -> str:
        return f"/api/v1/captures/{capture.id}/file"

    @extend_schema_field(DraftSerializer(many=True))
    def get_drafts(self, capture):
        return DraftSerializer(capture.drafts.order_by("occurred_at", "id"), many=True).data


class CaptureListView(APIView):
    max_body_bytes = MAX_BODY_BYTES  # refused by zeus.middleware before the body is read
    parser_classes = [MultiPartParser]

    @extend_schema(
        operation_id="captures_create",
        request={
            "multipart/form-data": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
                "required": ["file"],
            }
        },
        responses={201: CaptureSerializer},
        description="A JPEG, PNG, WebP or GIF receipt or transfer screenshot, or a PDF statement, read by the model "
        "into bank-text drafts; or a statement file (XLSX, CSV, OFX, QIF, CAMT, MT940, Norma 43, CODA, CFONB 120) "
        "checked by the importers and kept pending until `/import`. Recognised by its bytes; nothing is stored when "
        "it cannot be read. "
        "See docs/contract/rest.md, Captures.",
    )
    def post(self, request):
        uploads = request.FILES.getlist("file")
        if len(uploads) != 1:
            raise CaptureRejected(
                _("Send one file as the multipart field `file`."),
                code="CAPTURE_MISSING",
                fields={"file": [_("Exactly one file.")]},
            )
        upload = uploads[0]
        capture = services.capture_create(
            user=request.user, upload=upload, name=upload.name, content_type=upload.content_type or ""
        )
        return Response(CaptureSerializer(capture).data, status=status.HTTP_201_CREATED)


class CaptureDetailView(APIView):
    @extend_schema(operation_id="captures_get", responses=CaptureSerializer)
    def get(self, request, capture_id: int):
        return Response(CaptureSerializer(services.capture_get(user=request.user, capture_id=capture_id)).data)


class CaptureFileView(APIView):
    @extend_schema(operation_id="captures_file", responses={(200, "*/*"): OpenApiTypes.BINARY})
    def get(self, request, capture_id: int):
        capture = services.capture_with_file(user=request.user, capture_id=capture_id)
        return capture_file_response(capture)


class TransactionFileView(APIView):
    """The file a transaction was confirmed from (a receipt, a screenshot, a statement PDF), for its owner."""

    @extend_schema(operation_id="transactions_file", responses={(200, "*/*"): OpenApiTypes.BINARY})
    def get(self, request, transaction_id: int):
        capture = services.capture_for_transaction(user=request.user, transaction_id=transaction_id)
        if capture is None or not capture.file:
            raise NotFound(_("This transaction has no kept file."))
        return capture_file_response(capture)


def capture_file_response(capture: Capture) -> FileResponse:
    """The kept file as its owner shared it, shown inline but never run: its own sandbox, no sniffing."""
    response = FileResponse(capture.file.open("rb"), content_type=capture.media_type)
    response["Content-Disposition"] = "inline" if capture.kind != "statement" else "attachment"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
    response["Cache-Control"] = "private, no-store"
    return response


class CaptureImportView(APIView):
    @extend_schema(operation_id="captures_import", request=None, responses={201: CaptureSerializer})
    def post(self, request, capture_id: int):
        capture = services.capture_import(user=request.user, capture_id=capture_id)
        return Response(CaptureSerializer(capture).data, status=status.HTTP_201_CREATED)


class CaptureDiscardView(APIView):
    @extend_schema(operation_id="captures_discard", request=None, responses=CaptureSerializer)
    def post(self, request, capture_id: int):
        return Response(CaptureSerializer(services.capture_discard(user=request.user, capture_id=capture_id)).data)

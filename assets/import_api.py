"""REST for the statement import: POST /transactions/import, a file as multipart or as the raw body."""

import io
import tempfile

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from assets.importing import MAX_BYTES, transactions_import, upload_refused
from zeus.text import parse_json


class StatementBodyParser(BaseParser):
    """A statement sent as the raw body (CSV, OFX, QIF, CAMT XML, MT940, Norma 43, CODA, CFONB 120, XLSX or XLS), copied
    to a temporary file in chunks up to one past the import's size cap: the body is never held in memory whole."""

    media_type = "text/csv"
    chunk = 256 * 1024

    def parse(self, stream, media_type=None, parser_context=None):
        # Handed to the view, which reads it to the end; closed when the request is collected.
        spooled = tempfile.SpooledTemporaryFile(max_size=1024 * 1024)  # noqa: SIM115
        if stream is None:
            return spooled
        copied = 0
        try:
            while copied <= MAX_BYTES:
                chunk = stream.read(self.chunk)
                if not chunk:
                    break
                spooled.write(chunk)
                copied += len(chunk)
        except OSError as exc:
            raise ParseError(_("Could not read the body: %(reason)s") % {"reason": exc}) from exc
        if copied > MAX_BYTES:
            spooled.close()
            raise upload_refused("too_large")
        spooled.seek(0)
        return spooled


def _body_parser(media: str) -> type[StatementBodyParser]:
    return type(f"StatementBodyParser[{media}]", (StatementBodyParser,), {"media_type": media})


_BODY_TYPES = (
    "text/csv",
    "application/x-ofx",
    "application/vnd.intu.qfx",
    "application/qif",
    "application/x-qif",
    "application/xml",
    "text/xml",
    "text/plain",
    "application/octet-stream",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
)


class TransactionImportView(APIView):
    max_body_bytes = MAX_BYTES + 1024 * 1024  # the file, and a multipart envelope around it (zeus.middleware)
    parser_classes = [MultiPartParser, *(_body_parser(media) for media in _BODY_TYPES)]

    @extend_schema(
        operation_id="transactions_import",
        request={
            "multipart/form-data": {
                "type": "object",
                "properties": {
                    "file": {"type": "string", "format": "binary"},
                    "asset": {"type": "integer", "description": "File the rows under this asset."},
                    "mapping": {
                        "type": "string",
                        "description": "JSON, for a CSV with a bank's own header: which column is date, "
                        "description, amount (or debit/credit), direction, external_id; and date_format.",
                    },
                },
                "required": ["file"],
            },
            "text/csv": {"type": "string"},
        },
        responses=inline_serializer(
            "ImportResult", {"imported": serializers.IntegerField(), "skipped": serializers.IntegerField()}
        ),
        description="CSV (`date,description,amount,direction,category,external_id`, or a bank's header with a "
        "mapping), OFX/QFX, QIF or CAMT.053, recognised by content; rows land as synced transactions. Any bad "
        "row rejects the whole file with `fields.rows` keyed by line (or entry). See docs/feeds.md for limits.",
    )
    def post(self, request):
        source, mapping, asset = _upload(request)
        upload = request.FILES.get("file") if hasattr(request, "FILES") else None
        result = transactions_import(
            user=request.user, source=source, mapping=mapping, asset_id=asset, filename=getattr(upload, "name", "")
        )
        return Response({"imported": result.imported, "skipped": result.skipped})


def _upload(request):
    data = request.data
    if not isinstance(data, dict) and hasattr(data, "read"):
        return data, None, request.query_params.get("asset")
    if request.content_type.split(";")[0].strip() in _BODY_TYPES:
        return io.BytesIO(b""), None, None  # an empty body: DRF does not call a parser for it
    upload = request.FILES.get("file")
    if upload is None:
        raise upload_refused("missing")
    raw_mapping = data.get("mapping")
    mapping = None
    if raw_mapping not in (None, ""):
        try:
            mapping = parse_json(raw_mapping)
        except ValueError:
            raise upload_refused("bad_mapping") from None
    return upload.file, mapping, data.get("asset")

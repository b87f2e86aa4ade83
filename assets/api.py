"""REST for the ledger: assets, linked accounts, transactions and the statement import."""

import io
import tempfile

from django.db import transaction as db_transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from assets import categories, selectors, services
from assets.cards.api import CardDaysInput, CardFields, with_card_dues
from assets.importing import MAX_BYTES, transactions_import, upload_refused
from assets.ledger.api import SplitPartSerializer, TransferLinkSerializer, WithLedgerFields
from assets.ledger.corrections import asset_archive, transaction_correct
from assets.ledger.selectors import ledger_flags, transaction_ledgers
from assets.models import Asset, Source, Transaction
from assets.rules.offers import rule_offer
from zeus.api.fields import MoneyField
from zeus.api.pagination import NewestFirstCursorPagination, paginate
from zeus.api.renderers import RowsJSONRenderer
from zeus.money import quantize
from zeus.text import parse_json

_BIGINT_MAX = 2**63 - 1


class _AssetFields(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Asset.Kind.choices)
    balance = MoneyField()
    currency = serializers.CharField()
    source = serializers.ChoiceField(choices=Source.choices)
    editable = serializers.BooleanField()
    bank_bin = serializers.CharField(help_text="The bank's NAPAS BIN for a VietQR to this account; empty if none.")
    account_number = serializers.CharField(help_text="The account number a VietQR sends money to; empty if none.")
    archived = serializers.SerializerMethodField()

    def get_archived(self, asset) -> bool:
        return asset.archived_at is not None


class AssetSerializer(_AssetFields, CardFields):
    """An asset, then its credit-card cycle (assets/cards/api.py)."""


class LinkedAccountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    institution = serializers.CharField()
    name = serializers.CharField()
    masked_number = serializers.CharField()
    balance = MoneyField()
    currency = serializers.CharField()
    last_synced_at = serializers.DateTimeField(allow_null=True)


class TransactionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    amount = MoneyField()
    currency = serializers.CharField()
    direction = serializers.ChoiceField(choices=Transaction.Direction.choices)
    description = serializers.CharField()
    category = serializers.CharField(help_text='A fixed category, or the user\'s own as "c:<id>".')
    occurred_on = serializers.DateField()
    asset = serializers.IntegerField(source="asset_id", allow_null=True)
    source = serializers.ChoiceField(choices=Source.choices)
    external_id = serializers.CharField(allow_null=True)
    editable = serializers.BooleanField()
    note = serializers.CharField()
    excluded = serializers.BooleanField()
    transfer = TransferLinkSerializer(allow_null=True)
    split = SplitPartSerializer(many=True, allow_null=True)

    def to_representation(self, instance):
        return super().to_representation(WithLedgerFields(instance))


# What a transaction list reads: TransactionSerializer's fields as columns (no timestamps, no joined asset).
_TRANSACTION_COLUMNS = (
    "id", "amount", "currency", "direction", "description", "category", "occurred_on", "asset_id", "source",
    "external_id", "note", "excluded", "user_category_id",
)  # fmt: skip


def _transaction_rows(*, user, rows: list) -> list[dict]:
    """Named `.values_list()` rows (the columns and ledger_flags()) as TransactionSerializer shows them, byte for
    byte (the golden tests compare): per row, the serializer's per-field machinery, or a `.values()` dict read
    once, is most of the cost of a long page. Only flagged rows go to transaction_ledgers."""
    ledgers = transaction_ledgers(user=user, rows=[row for row in rows if row.has_split or row.has_transfer])
    return [_transaction_row(row, ledgers.get(row.id)) for row in rows]


def _transaction_row(row, ledger: dict | None) -> dict:
    return {
        "id": row.id,
        "amount": str(quantize(row.amount, row.currency)),
        "currency": row.currency,
        "direction": row.direction,
        "description": row.description,
        "category": f"c:{row.user_category_id}" if row.user_category_id else row.category,
        "occurred_on": row.occurred_on.isoformat(),
        "asset": row.asset_id,
        "source": row.source,
        "external_id": row.external_id,
        "editable": row.source == Source.MANUAL,
        "note": row.note,
        "excluded": row.excluded,
        "transfer": ledger["transfer"] if ledger else None,
        "split": ledger["split"] if ledger else None,
    }


_SOURCE_FILTER = OpenApiParameter("source", str, enum=["all", "manual", "synced"], description="Default all.")


class AssetListView(APIView):
    pagination_class = NewestFirstCursorPagination

    class InputSerializer(CardDaysInput):
        name = serializers.CharField(max_length=100)
        kind = serializers.ChoiceField(choices=Asset.Kind.choices)
        balance = MoneyField(required=False)
        currency = serializers.CharField(max_length=3, required=False)
        bank_bin = serializers.CharField(max_length=6, required=False, allow_blank=True)
        account_number = serializers.CharField(max_length=40, required=False, allow_blank=True)

    @extend_schema(operation_id="assets_list", parameters=[_SOURCE_FILTER], responses=AssetSerializer(many=True))
    def get(self, request):
        qs = selectors.asset_list(user=request.user, source=request.query_params.get("source"))
        return paginate(
            request=request,
            view=self,
            queryset=qs,
            serializer_class=AssetSerializer,
            transform=lambda page: with_card_dues(page, user=request.user),
        )

    @extend_schema(request=InputSerializer, responses={201: AssetSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        asset = services.asset_create(user=request.user, **data.validated_data)
        return Response(AssetSerializer(asset).data, status=status.HTTP_201_CREATED)


class AssetDetailView(APIView):
    class InputSerializer(CardDaysInput):
        name = serializers.CharField(max_length=100, required=False)
        kind = serializers.ChoiceField(choices=Asset.Kind.choices, required=False)
        balance = MoneyField(required=False)
        bank_bin = serializers.CharField(max_length=6, required=False, allow_blank=True)
        account_number = serializers.CharField(max_length=40, required=False, allow_blank=True)
        archived = serializers.BooleanField(required=False, help_text="Archive (true) or restore (false).")

    @extend_schema(responses=AssetSerializer)
    def get(self, request, asset_id: int):
        return Response(AssetSerializer(selectors.asset_get(user=request.user, asset_id=asset_id)).data)

    @extend_schema(request=InputSerializer, responses=AssetSerializer)
    def patch(self, request, asset_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        archived = changes.pop("archived", None)
        with db_transaction.atomic():
            asset = services.asset_update(user=request.user, asset_id=asset_id, **changes)
            if archived is not None:
                asset = asset_archive(user=request.user, asset_id=asset_id, archived=archived)
        return Response(AssetSerializer(asset).data)

    @extend_schema(responses={204: None})
    def delete(self, request, asset_id: int):
        services.asset_delete(user=request.user, asset_id=asset_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LinkedAccountListView(APIView):
    pagination_class = NewestFirstCursorPagination

    @extend_schema(operation_id="linked_accounts_list", responses=LinkedAccountSerializer(many=True))
    def get(self, request):
        qs = selectors.linked_account_list(user=request.user)
        return paginate(request=request, view=self, queryset=qs, serializer_class=LinkedAccountSerializer)


class _TransactionFields(serializers.Serializer):
    amount = MoneyField()
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    direction = serializers.ChoiceField(choices=Transaction.Direction.choices, required=False)
    category = serializers.CharField(
        max_length=24, required=False, allow_null=True, help_text='A fixed category, or your own as "c:<id>".'
    )
    occurred_on = serializers.DateField(required=False, help_text="Default: today in the user's timezone.")
    currency = serializers.CharField(max_length=3, required=False, help_text="Default: the asset's, else the user's.")
    asset = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=_BIGINT_MAX)


def _transaction_changes(data: dict) -> dict:
    """Only the fields the client sent (DRF leaves out the rest), with `asset` named as the service names it."""
    if "asset" in data:
        data["asset_id"] = data.pop("asset")
    return data


class TransactionListView(APIView):
    pagination_class = NewestFirstCursorPagination
    renderer_classes = [RowsJSONRenderer]  # its rows are plain values (_transaction_rows)

    class InputSerializer(_TransactionFields):
        pass

    @extend_schema(
        operation_id="transactions_list",
        parameters=[
            OpenApiParameter("since", OpenApiTypes.DATE, description="On or after this day."),
            OpenApiParameter("until", OpenApiTypes.DATE, description="On or before this day."),
            OpenApiParameter("category", str, enum=list(categories.ALL)),
            OpenApiParameter("direction", str, enum=Transaction.Direction.values),
            _SOURCE_FILTER,
            OpenApiParameter("asset", int, description="An asset id."),
        ],
        responses=TransactionSerializer(many=True),
    )
    def get(self, request):
        params = request.query_params
        lookups = selectors.transaction_filters(
            user=request.user,
            since=params.get("since"),
            until=params.get("until"),
            category=params.get("category"),
            direction=params.get("direction"),
            source=params.get("source"),
            asset_id=params.get("asset"),
        )
        return paginate(
            request=request,
            view=self,
            queryset=selectors.transactions_matching(user=request.user, lookups=lookups)
            .annotate(**ledger_flags())
            .values_list(*_TRANSACTION_COLUMNS, *ledger_flags(), named=True),
            transform=lambda rows: _transaction_rows(user=request.user, rows=rows),
            ordering=("-occurred_on", "-id"),
        )

    @extend_schema(request=InputSerializer, responses={201: TransactionSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        txn = services.transaction_create(user=request.user, **_transaction_changes(dict(data.validated_data)))
        return Response(TransactionSerializer(txn).data, status=status.HTTP_201_CREATED)


class TransactionDetailView(APIView):
    class InputSerializer(_TransactionFields):
        amount = MoneyField(required=False)
        note = serializers.CharField(max_length=500, required=False, allow_blank=True)
        excluded = serializers.BooleanField(required=False)
        external_id = serializers.CharField(max_length=100, required=False, help_text="Read only on synced rows.")

    @extend_schema(responses=TransactionSerializer)
    def get(self, request, transaction_id: int):
        txn = selectors.transaction_get(user=request.user, transaction_id=transaction_id)
        return Response(TransactionSerializer(txn).data)

    @extend_schema(request=InputSerializer, responses=TransactionSerializer)
    def patch(self, request, transaction_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        before = selectors.transaction_get(user=request.user, transaction_id=transaction_id).category
        # Corrections reach any row; a synced or imported row refuses its facts alone (docs/ledger.md).
        txn = transaction_correct(
            user=request.user, transaction_id=transaction_id, **_transaction_changes(dict(data.validated_data))
        )
        body = TransactionSerializer(txn).data
        if txn.category != before:
            # Recategorizing teaches: the answer offers the rule that would have done it (docs/feeds.md).
            offer = rule_offer(user=request.user, txn=txn)
            if offer:
                body["rule_offer"] = offer
        return Response(body)

    @extend_schema(responses={204: None})
    def delete(self, request, transaction_id: int):
        services.transaction_delete(user=request.user, transaction_id=transaction_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StatementBodyParser(BaseParser):
    """A statement sent as the raw body (CSV, OFX, QIF, CAMT XML, MT940 or XLSX), copied to a temporary file in
    chunks up to one past the import's size cap: the body is never held in memory whole."""

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
            raise ParseError(f"Could not read the body: {exc}") from exc
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

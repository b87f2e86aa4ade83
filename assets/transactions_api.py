"""REST for transactions: the list with its filters, one row read, created, corrected and deleted."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets import categories, selectors, services
from assets.api import SOURCE_FILTER, SOURCES
from assets.ledger.api import SplitPartSerializer, TransferLinkSerializer, WithLedgerFields
from assets.ledger.corrections import transaction_correct
from assets.ledger.selectors import ledger_flags, transaction_ledgers
from assets.models import Source, Transaction
from assets.rules.offers import rule_offer
from zeus.api.fields import MoneyField
from zeus.api.pagination import NewestFirstCursorPagination, paginate
from zeus.api.query import FilterChoiceField, query_filters
from zeus.api.renderers import RowsJSONRenderer
from zeus.money import quantize

_BIGINT_MAX = 2**63 - 1


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

    class FilterSerializer(serializers.Serializer):
        since = serializers.DateField(required=False)
        until = serializers.DateField(required=False)
        category = FilterChoiceField(categories.ALL)
        direction = FilterChoiceField(Transaction.Direction.values)
        source = FilterChoiceField(SOURCES)
        # Another user's asset is the selector's 404, as everywhere; here only what is not an id at all.
        asset = serializers.IntegerField(required=False, error_messages={"invalid": _("Not an asset id.")})

    @extend_schema(
        operation_id="transactions_list",
        parameters=[
            OpenApiParameter("since", OpenApiTypes.DATE, description="On or after this day."),
            OpenApiParameter("until", OpenApiTypes.DATE, description="On or before this day."),
            OpenApiParameter("category", str, enum=list(categories.ALL)),
            OpenApiParameter("direction", str, enum=Transaction.Direction.values),
            SOURCE_FILTER,
            OpenApiParameter("asset", int, description="An asset id."),
        ],
        responses=TransactionSerializer(many=True),
    )
    def get(self, request):
        filters = query_filters(self.FilterSerializer, request)
        lookups = selectors.transaction_filters(
            user=request.user,
            since=filters.get("since"),
            until=filters.get("until"),
            category=filters.get("category") or None,
            direction=filters.get("direction") or None,
            source=filters.get("source") or None,
            asset_id=filters.get("asset"),
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

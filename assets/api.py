"""REST for assets and linked accounts (transactions: transactions_api.py; the statement import: import_api.py)."""

from django.db import transaction as db_transaction
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets import selectors, services
from assets.cards.api import CardDaysInput, CardFields, with_card_dues
from assets.ledger.corrections import asset_archive
from assets.models import Asset, Source
from zeus.api.fields import MoneyField
from zeus.api.pagination import NewestFirstCursorPagination, paginate
from zeus.api.query import FilterChoiceField, query_filters

# The lists' `source` filter: "all" (the default) or one source.
SOURCES = ["all", *Source.values]
SOURCE_FILTER = OpenApiParameter("source", str, enum=SOURCES, description="Default all.")


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


class AssetListView(APIView):
    pagination_class = NewestFirstCursorPagination

    class InputSerializer(CardDaysInput):
        name = serializers.CharField(max_length=100)
        kind = serializers.ChoiceField(choices=Asset.Kind.choices)
        balance = MoneyField(required=False)
        currency = serializers.CharField(max_length=3, required=False)
        bank_bin = serializers.CharField(max_length=6, required=False, allow_blank=True)
        account_number = serializers.CharField(max_length=40, required=False, allow_blank=True)

    class FilterSerializer(serializers.Serializer):
        source = FilterChoiceField(SOURCES)

    @extend_schema(operation_id="assets_list", parameters=[SOURCE_FILTER], responses=AssetSerializer(many=True))
    def get(self, request):
        source = query_filters(self.FilterSerializer, request).get("source")
        qs = selectors.asset_list(user=request.user, source=source or None)
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

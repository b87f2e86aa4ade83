"""REST for the ledger's truth (docs/contract/rest.md, "Ledger"): transfers and their suggestions, splits,
imports, the user's own categories, exchange rates, reconciling an account."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets import categories
from assets.ledger import catalog, corrections, selectors, transfers
from assets.ledger.models import Transfer
from assets.ledger.selectors import transaction_ledger_fields
from assets.models import Transaction
from zeus.api.fields import MoneyField
from zeus.api.pagination import NewestFirstCursorPagination, paginate
from zeus.api.query import query_filters
from zeus.errors import ValidationFailed
from zeus.money import InvalidCurrency, normalize_currency, quantize
from zeus.timeutil import parse_date, user_today

_BIGINT_MAX = 2**63 - 1


class TransferLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    counterpart = serializers.IntegerField(allow_null=True, help_text="The other side; null when untracked.")
    status = serializers.ChoiceField(choices=["paired", "suggested"])


class SplitPartSerializer(serializers.Serializer):
    amount = serializers.CharField()
    category = serializers.CharField(help_text='A fixed category, or the user\'s own as "c:<id>".')
    note = serializers.CharField(required=False, allow_blank=True)


class WithLedgerFields:
    """A transaction with its ledger fields (transfer, split, "c:<id>" category) read once, as the
    serializer's attributes."""

    def __init__(self, txn: Transaction):
        self._txn = txn
        self._ledger = transaction_ledger_fields(txn=txn)

    def __getattr__(self, name):
        if name in self._ledger:
            return self._ledger[name]
        return getattr(self._txn, name)


class TransferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    out = serializers.IntegerField(source="outgoing_id", allow_null=True)
    in_ = serializers.IntegerField(source="incoming_id", allow_null=True)
    status = serializers.ChoiceField(choices=Transfer.Status.choices)
    amount = serializers.SerializerMethodField()
    currency = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_fields(self):
        fields = super().get_fields()
        fields["in"] = fields.pop("in_")
        return fields

    def _side(self, transfer):
        return transfer.outgoing or transfer.incoming

    def get_amount(self, transfer) -> str:
        side = self._side(transfer)
        return str(quantize(side.amount, side.currency))

    def get_currency(self, transfer) -> str:
        return self._side(transfer).currency


class TransferListView(APIView):
    pagination_class = NewestFirstCursorPagination

    class InputSerializer(serializers.Serializer):
        out = serializers.IntegerField(required=False, min_value=1, max_value=_BIGINT_MAX)
        in_ = serializers.IntegerField(required=False, min_value=1, max_value=_BIGINT_MAX)

        def get_fields(self):
            fields = super().get_fields()
            fields["in"] = fields.pop("in_")
            return fields

    @extend_schema(operation_id="transfers_list", responses=TransferSerializer(many=True))
    def get(self, request):
        qs = selectors.transfer_list(user=request.user)
        return paginate(request=request, view=self, queryset=qs, serializer_class=TransferSerializer)

    @extend_schema(request=InputSerializer, responses={201: TransferSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        transfer = transfers.transfer_create(
            user=request.user, out_id=data.validated_data.get("out"), in_id=data.validated_data.get("in")
        )
        transfer = selectors.transfer_list(user=request.user).get(pk=transfer.pk)
        return Response(TransferSerializer(transfer).data, status=status.HTTP_201_CREATED)


class TransferDetailView(APIView):
    @extend_schema(responses={204: None}, description="Both rows are income and spending again; never re-proposed.")
    def delete(self, request, transfer_id: int):
        transfers.transfer_delete(user=request.user, transfer_id=transfer_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TransferSuggestionListView(APIView):
    pagination_class = NewestFirstCursorPagination

    @extend_schema(operation_id="transfer_suggestions_list", responses=TransferSerializer(many=True))
    def get(self, request):
        qs = selectors.transfer_list(user=request.user, status=Transfer.Status.SUGGESTED)
        return paginate(request=request, view=self, queryset=qs, serializer_class=TransferSerializer)


class TransferSuggestionAcceptView(APIView):
    @extend_schema(request=None, responses=TransferSerializer)
    def post(self, request, transfer_id: int):
        transfer = transfers.transfer_suggestion_accept(user=request.user, transfer_id=transfer_id)
        transfer = selectors.transfer_list(user=request.user).get(pk=transfer.pk)
        return Response(TransferSerializer(transfer).data)


class TransferSuggestionRejectView(APIView):
    @extend_schema(request=None, responses={204: None})
    def post(self, request, transfer_id: int):
        transfers.transfer_suggestion_reject(user=request.user, transfer_id=transfer_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TransactionSplitView(APIView):
    class InputSerializer(serializers.Serializer):
        parts = serializers.ListField(child=serializers.DictField(), max_length=50)

    @extend_schema(
        request=inline_serializer("SplitInput", {"parts": SplitPartSerializer(many=True)}),
        responses={200: inline_serializer("SplitResult", {"split": SplitPartSerializer(many=True)})},
        description="Parts summing exactly to the row, else 400 SPLIT_MISMATCH. Replaces an earlier split.",
    )
    def post(self, request, transaction_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        corrections.transaction_split(
            user=request.user, transaction_id=transaction_id, parts=data.validated_data["parts"]
        )
        parts = selectors.split_parts(transaction_ids=[int(transaction_id)]).get(int(transaction_id))
        return Response({"split": parts})

    @extend_schema(responses={204: None}, description="Joins the split again.")
    def delete(self, request, transaction_id: int):
        corrections.transaction_unsplit(user=request.user, transaction_id=transaction_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ImportBatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    format = serializers.CharField()
    filename = serializers.CharField()
    asset = serializers.IntegerField(source="asset_id", allow_null=True)
    imported = serializers.IntegerField()
    skipped = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class ImportBatchListView(APIView):
    pagination_class = NewestFirstCursorPagination

    @extend_schema(operation_id="imports_list", responses=ImportBatchSerializer(many=True))
    def get(self, request):
        qs = selectors.import_batch_list(user=request.user)
        return paginate(request=request, view=self, queryset=qs, serializer_class=ImportBatchSerializer)


class ImportBatchDetailView(APIView):
    @extend_schema(responses={204: None}, description="Removes the rows this import added, and nothing else.")
    def delete(self, request, batch_id: int):
        corrections.import_batch_delete(user=request.user, batch_id=batch_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CategorySerializer(serializers.Serializer):
    id = serializers.SerializerMethodField()
    kind = serializers.ChoiceField(choices=categories.CHOICES)
    name_vi = serializers.CharField()
    name_en = serializers.CharField()

    def get_id(self, own) -> str:
        return own.key


class CategoryListView(APIView):
    pagination_class = NewestFirstCursorPagination

    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=categories.CHOICES)
        name_vi = serializers.CharField(max_length=60)
        name_en = serializers.CharField(max_length=60)

    @extend_schema(operation_id="categories_list", responses=CategorySerializer(many=True))
    def get(self, request):
        qs = selectors.user_category_list(user=request.user)
        return paginate(request=request, view=self, queryset=qs, serializer_class=CategorySerializer)

    @extend_schema(request=InputSerializer, responses={201: CategorySerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        own = catalog.user_category_create(user=request.user, **data.validated_data)
        return Response(CategorySerializer(own).data, status=status.HTTP_201_CREATED)


def _category_id(category_id: str) -> str:
    return category_id.removeprefix(catalog.USER_CATEGORY_PREFIX)


class CategoryDetailView(APIView):
    class InputSerializer(serializers.Serializer):
        name_vi = serializers.CharField(max_length=60, required=False)
        name_en = serializers.CharField(max_length=60, required=False)

    @extend_schema(request=InputSerializer, responses=CategorySerializer)
    def patch(self, request, category_id: str):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        own = catalog.user_category_update(
            user=request.user, category_id=_category_id(category_id), **data.validated_data
        )
        return Response(CategorySerializer(own).data)

    @extend_schema(responses={204: None}, description="Its rows fall back to its kind.")
    def delete(self, request, category_id: str):
        catalog.user_category_delete(user=request.user, category_id=_category_id(category_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RateSerializer(serializers.Serializer):
    date = serializers.DateField(source="day")
    from_ = serializers.CharField(source="from_currency")
    to = serializers.CharField(source="to_currency")
    rate = serializers.SerializerMethodField()
    source = serializers.CharField()

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        fields["to"] = fields.pop("to")
        fields["rate"] = fields.pop("rate")
        fields["source"] = fields.pop("source")
        return fields

    def get_rate(self, answer) -> str:
        return format(answer.rate.normalize(), "f")


class RateListView(APIView):
    class InputSerializer(serializers.Serializer):
        date = serializers.DateField()
        from_ = serializers.CharField(max_length=3)
        to = serializers.CharField(max_length=3)
        rate = serializers.DecimalField(max_digits=30, decimal_places=10, coerce_to_string=True)

        def get_fields(self):
            fields = super().get_fields()
            fields["from"] = fields.pop("from_")
            return fields

    class FilterSerializer(serializers.Serializer):
        base = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)

        def validate_base(self, value: str) -> str:
            try:
                return normalize_currency(value) if value else value
            except InvalidCurrency:
                raise serializers.ValidationError(_("Not a currency code such as VND, USD or EUR.")) from None

    @extend_schema(
        operation_id="rates_list",
        parameters=[
            OpenApiParameter("base", str, description="What one unit of this currency buys. Default: yours."),
            OpenApiParameter("date", OpenApiTypes.DATE, description="Default: your today."),
        ],
        responses=RateSerializer(many=True),
    )
    def get(self, request):
        base = query_filters(self.FilterSerializer, request).get("base") or request.user.profile.currency
        base = normalize_currency(base)
        day = parse_date(request.query_params["date"], "date") if request.query_params.get("date") else None
        answers = selectors.rate_list(user=request.user, base=base, day=day or user_today(request.user))
        return Response({"results": RateSerializer(answers, many=True).data, "next": None, "previous": None})

    @extend_schema(request=InputSerializer, responses={201: RateSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        if not data.is_valid():
            raise ValidationFailed(gettext("Check the rate."), code="RATE_INVALID", fields=data.errors)
        values = data.validated_data
        rate = catalog.exchange_rate_set(
            user=request.user,
            day=values["date"],
            from_currency=values["from"],
            to_currency=values["to"],
            rate=values["rate"],
        )
        return Response(RateSerializer(rate).data, status=status.HTTP_201_CREATED)


class AssetReconcileView(APIView):
    class InputSerializer(serializers.Serializer):
        balance = MoneyField(help_text="What the bank says the balance is.")

    @extend_schema(
        request=InputSerializer,
        responses=inline_serializer("ReconcileResult", {"adjustment": serializers.IntegerField(allow_null=True)}),
        description="The balance becomes the one given; the difference is one adjustment row (excluded from "
        "totals until you categorize it), never a silent overwrite.",
    )
    def post(self, request, asset_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = corrections.asset_reconcile(user=request.user, asset_id=asset_id, balance=data.validated_data["balance"])
        return Response({"adjustment": row.id if row else None})

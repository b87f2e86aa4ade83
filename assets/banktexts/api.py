"""REST for bank texts (`/api/v1/bank-texts`): a pasted or forwarded notification → a draft → confirmed
into one transaction, or discarded."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets import categories
from assets.banktexts import services
from assets.models import BankTextDraft, Transaction
from assets.transactions_api import TransactionSerializer
from zeus.api.fields import MoneyField


class DraftSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=BankTextDraft.Status.choices)
    parsed_by = serializers.ChoiceField(choices=BankTextDraft.ParsedBy.choices)
    bank = serializers.CharField(allow_null=True)
    amount = MoneyField()
    currency = serializers.CharField()
    direction = serializers.ChoiceField(choices=Transaction.Direction.choices)
    occurred_at = serializers.DateTimeField()
    description = serializers.CharField(allow_blank=True)
    category = serializers.ChoiceField(choices=categories.CHOICES)
    account_mask = serializers.CharField(allow_null=True)
    balance_after = MoneyField(allow_null=True)
    asset = serializers.IntegerField(source="asset_id", allow_null=True)
    linked_account = serializers.IntegerField(source="linked_account_id", allow_null=True)
    duplicate_of = serializers.IntegerField(source="duplicate_of_id", allow_null=True)
    transaction = serializers.IntegerField(source="transaction_id", allow_null=True)
    capture = serializers.IntegerField(
        source="capture_id", allow_null=True, help_text="The shared file this draft was read from (captures)."
    )

    def to_representation(self, draft):
        body = super().to_representation(draft)
        body["bank"] = draft.bank or None
        body["account_mask"] = draft.account_mask or None
        return body


class _TextField(serializers.CharField):
    """Text only: DRF's CharField would read the number 5 as the text "5"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError(_("Must be text."))
        return super().to_internal_value(data)


class BankTextListView(APIView):
    class InputSerializer(serializers.Serializer):
        text = _TextField(max_length=services.MAX_TEXT, trim_whitespace=False)
        sender = _TextField(
            max_length=services.MAX_SENDER,
            required=False,
            allow_blank=True,
            help_text="The SMS sender as the phone shows it (`VPBank`), when known: it names the bank.",
        )

    @extend_schema(operation_id="bank_texts_create", request=InputSerializer, responses={201: DraftSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        draft = services.bank_text_draft_create(
            user=request.user, text=data.validated_data["text"], sender=data.validated_data.get("sender", "")
        )
        return Response(DraftSerializer(draft).data, status=status.HTTP_201_CREATED)


class BankTextDetailView(APIView):
    @extend_schema(operation_id="bank_texts_get", responses=DraftSerializer)
    def get(self, request, draft_id: int):
        return Response(DraftSerializer(services.bank_text_draft_get(user=request.user, draft_id=draft_id)).data)


class BankTextConfirmView(APIView):
    class InputSerializer(serializers.Serializer):
        amount = MoneyField(required=False)
        direction = serializers.ChoiceField(choices=Transaction.Direction.choices, required=False)
        occurred_on = serializers.DateField(required=False)
        description = serializers.CharField(max_length=200, required=False, allow_blank=True)
        category = serializers.ChoiceField(choices=categories.CHOICES, required=False)
        asset = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**63 - 1)
        save_anyway = serializers.BooleanField(required=False, default=False)

    @extend_schema(operation_id="bank_texts_confirm", request=InputSerializer, responses={201: TransactionSerializer})
    def post(self, request, draft_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        save_anyway = values.pop("save_anyway")
        txn = services.bank_text_draft_confirm(
            user=request.user, draft_id=draft_id, values=values, save_anyway=save_anyway
        )
        return Response(TransactionSerializer(txn).data, status=status.HTTP_201_CREATED)


class BankTextDiscardView(APIView):
    @extend_schema(
        operation_id="bank_texts_discard",
        request=None,
        responses=inline_serializer(
            "DraftDiscarded", {"id": serializers.IntegerField(), "status": serializers.CharField()}
        ),
    )
    def post(self, request, draft_id: int):
        draft = services.bank_text_draft_discard(user=request.user, draft_id=draft_id)
        return Response({"id": draft.id, "status": draft.status})

"""REST for categorization rules (`/api/v1/rules`). Listed in the order they apply (position, then id):
a rule list is an ordered list, so the one exception to newest first (docs/feeds.md)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assets import categories
from assets.models import CategoryRule, Transaction
from assets.rules import selectors, services
from zeus.api.fields import MoneyField
from zeus.api.pagination import paginate


class RuleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.CharField()
    direction = serializers.ChoiceField(choices=Transaction.Direction.choices, allow_null=True)
    min_amount = MoneyField(currency_attr="currency", allow_null=True)
    max_amount = MoneyField(currency_attr="currency", allow_null=True)
    category = serializers.ChoiceField(choices=categories.CHOICES)
    position = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class _RuleFields(serializers.Serializer):
    match = serializers.CharField(max_length=100)
    direction = serializers.ChoiceField(choices=Transaction.Direction.choices, required=False, allow_null=True)
    min_amount = MoneyField(required=False, allow_null=True)
    max_amount = MoneyField(required=False, allow_null=True)
    category = serializers.ChoiceField(choices=categories.CHOICES)
    position = serializers.IntegerField(required=False, min_value=0, max_value=1_000_000)


def _out(rule: CategoryRule, user) -> dict:
    rule.currency = selectors.rule_currency(user)
    return RuleSerializer(rule).data


class RuleListView(APIView):
    class InputSerializer(_RuleFields):
        apply_to_existing = serializers.BooleanField(
            required=False, default=False, help_text="Also recategorize the transactions already in the ledger."
        )

    @extend_schema(operation_id="rules_list", responses=RuleSerializer(many=True))
    def get(self, request):
        currency = selectors.rule_currency(request.user)

        def with_currency(rows):
            for rule in rows:
                rule.currency = currency
            return rows

        return paginate(
            request=request,
            view=self,
            queryset=selectors.rule_list(user=request.user),
            serializer_class=RuleSerializer,
            ordering=("position", "id"),
            transform=with_currency,
        )

    @extend_schema(request=InputSerializer, responses={201: RuleSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        apply = values.pop("apply_to_existing")
        rule = services.rule_create(user=request.user, **values)
        body = _out(rule, request.user)
        if apply:
            body["applied"] = services.rule_apply_to_existing(user=request.user, rule=rule)
        return Response(body, status=status.HTTP_201_CREATED)


class RuleDetailView(APIView):
    class InputSerializer(_RuleFields):
        match = serializers.CharField(max_length=100, required=False)
        category = serializers.ChoiceField(choices=categories.CHOICES, required=False)

    @extend_schema(responses=RuleSerializer)
    def get(self, request, rule_id: int):
        return Response(_out(selectors.rule_get(user=request.user, rule_id=rule_id), request.user))

    @extend_schema(request=InputSerializer, responses=RuleSerializer)
    def patch(self, request, rule_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rule = services.rule_update(user=request.user, rule_id=rule_id, **data.validated_data)
        return Response(_out(rule, request.user))

    @extend_schema(responses={204: None})
    def delete(self, request, rule_id: int):
        services.rule_delete(user=request.user, rule_id=rule_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

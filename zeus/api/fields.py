from decimal import Decimal

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from zeus.money import quantize


@extend_schema_field(
    {
        "type": "string",
        "example": "150000",
        "description": "An amount: out, a string quantized to the currency; in, a number or a string "
        "such as 150000, 150k, 1.5m, 2tr, 2 triệu, 150.000, 150,000đ or $12.50.",
    }
)
class MoneyField(serializers.Field):
    """Out: a string quantized to the row's currency (`"150000"`, `"12.50"`).

    In: a number or a shorthand string, passed through as typed; the service parses it against the
    currency it applies (zeus.money.parse_money), so the REST API and the chat tools share one rule.
    """

    def __init__(self, *, currency_attr: str = "currency", **kwargs):
        self.currency_attr = currency_attr
        super().__init__(**kwargs)

    def get_attribute(self, instance):
        value = super().get_attribute(instance)
        currency = instance[self.currency_attr] if isinstance(instance, dict) else getattr(instance, self.currency_attr)
        return value, currency

    def to_representation(self, pair):
        value, currency = pair
        return None if value is None else str(quantize(value, currency))

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, str | int | float | Decimal):
            raise serializers.ValidationError(_("An amount is a number or a string such as 150000, 150k or 12.50."))
        return data

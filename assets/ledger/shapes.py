"""The one shape in which every answer names what it converted and what it could not (CONTRACT §8.4): REST
serializers for the OpenAPI schema, and the same as plain JSON for the assistant's tools and cards.

`converted`: `[{"currency", "amount", "to_currency", "converted", "rate", "rate_date"}]`, one per currency
and rate used (assets.ledger.totals.conversion_summary); `rate_missing`: `[{"currency", "amount"}]`, what no
rate converts, left out of the figure, never taken at 1:1 (missing_summary)."""

from rest_framework import serializers

from zeus.money import quantize


class RateMissingSerializer(serializers.Serializer):
    currency = serializers.CharField(help_text="The currency no rate converts on the rows' days.")
    amount = serializers.SerializerMethodField(help_text="What is left out of the figure, in that currency.")

    def get_amount(self, entry) -> str:
        return str(quantize(entry["amount"], entry["currency"]))


class ConversionSerializer(serializers.Serializer):
    currency = serializers.CharField(help_text="The original currency.")
    amount = serializers.SerializerMethodField(help_text="The original amount.")
    to_currency = serializers.CharField()
    converted = serializers.SerializerMethodField(help_text="The amount in `to_currency`, counted in the figure.")
    rate = serializers.SerializerMethodField(help_text="How many `to_currency` one `currency` bought.")
    rate_date = serializers.DateField(help_text="The day the rate was set: the latest on or before the rows' day.")

    def get_amount(self, entry) -> str:
        return str(quantize(entry["amount"], entry["currency"]))

    def get_converted(self, entry) -> str:
        return str(quantize(entry["converted"], entry["to_currency"]))

    def get_rate(self, entry) -> str:
        return rate_text(entry["rate"])


def rate_text(rate) -> str:
    """A rate as a plain decimal string, without exponent or trailing zeros (`25400`, `0.0000393`)."""
    return format(rate.normalize(), "f")


# The plain JSON is built directly, field for field as the serializers above write it: a serializer instance
# per list made each weekly review batch build tens of thousands of field objects for what are mostly empty
# lists (tests/assets/test_shapes.py holds the two to the same output).
def conversions_json(entries: list[dict]) -> list[dict]:
    return [
        {
            "currency": str(e["currency"]),
            "amount": str(quantize(e["amount"], e["currency"])),
            "to_currency": str(e["to_currency"]),
            "converted": str(quantize(e["converted"], e["to_currency"])),
            "rate": rate_text(e["rate"]),
            "rate_date": None if e["rate_date"] is None else e["rate_date"].isoformat(),
        }
        for e in entries
    ]


def rate_missing_json(entries: list[dict]) -> list[dict]:
    return [{"currency": str(e["currency"]), "amount": str(quantize(e["amount"], e["currency"]))} for e in entries]

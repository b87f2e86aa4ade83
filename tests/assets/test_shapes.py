"""The plain JSON of conversions and missing rates is what the REST serializers write, field for field."""

import datetime as dt
from decimal import Decimal

from assets.ledger.shapes import ConversionSerializer, RateMissingSerializer, conversions_json, rate_missing_json


def test_conversions_json_is_the_serializers_output():
    entries = [
        {
            "currency": "USD",
            "amount": Decimal("12.5"),
            "to_currency": "VND",
            "converted": Decimal("317500.4"),
            "rate": Decimal("25400.0000"),
            "rate_date": dt.date(2026, 11, 27),
        },
        {
            "currency": "KWD",
            "amount": Decimal("1.2345"),
            "to_currency": "USD",
            "converted": Decimal("4.011"),
            "rate": Decimal("3.2500000"),
            "rate_date": dt.date(2026, 11, 28),
        },
    ]
    assert conversions_json(entries) == [dict(e) for e in ConversionSerializer(entries, many=True).data]
    assert conversions_json([]) == []


def test_rate_missing_json_is_the_serializers_output():
    entries = [{"currency": "USD", "amount": Decimal("3.456")}, {"currency": "JPY", "amount": Decimal("1200.4")}]
    assert rate_missing_json(entries) == [dict(e) for e in RateMissingSerializer(entries, many=True).data]
    assert rate_missing_json(entries)[0] == {"currency": "USD", "amount": "3.46"}

"""What a call costs: the price table, the env override, the Haiku long-prompt tier, the budget weights."""

from decimal import Decimal
from unittest import mock

import pytest

from chat import pricing
from chat.pricing import PRICES, PriceTableInvalid, call_cost, parse_overrides, price_for, quantize_cost

SONNET = PRICES["claude-sonnet-5-5"]
HAIKU = PRICES["claude-haiku-5-5"]


@pytest.mark.parametrize(
    ("usage", "price", "cost"),
    [
        ({"input": 1_000_000}, SONNET, "2"),
        ({"output": 1_000_000}, SONNET, "10"),
        ({"cache_write": 1_000_000}, SONNET, "2.50"),
        ({"cache_read": 1_000_000}, SONNET, "0.10"),
        # 1,000 in + 500 out + 10,000 read + 2,000 written on Sonnet 5.5
        ({"input": 1000, "output": 500, "cache_read": 10_000, "cache_write": 2000}, SONNET, "0.013"),
        ({"input": 120, "output": 3}, HAIKU, "0.0000135"),
        ({}, SONNET, "0"),
        ({"input": None, "output": 0}, SONNET, "0"),
        # over 100,000 prompt tokens Haiku 5.5 bills five times every rate, output included
        ({"input": 100_000, "output": 1000}, HAIKU, "0.0105"),
        ({"input": 90_000, "cache_read": 10_001, "output": 1000}, HAIKU, "0.04800005"),
        ({"input": 1_000_000}, PRICES["claude-sonnet-4-5"], "3"),
        ({"cache_read": 1_000_000}, PRICES["claude-haiku-4-5"], "0.10"),
    ],
)
def test_a_calls_cost(usage, price, cost):
    assert call_cost(usage, price) == Decimal(cost)


def test_costs_are_decimal_and_quantized_to_the_micro_dollar():
    cost = call_cost({"input": 1234, "output": 77, "cache_read": 5555}, SONNET)
    assert isinstance(cost, Decimal)
    assert str(quantize_cost(cost)) == "0.003794"  # 0.0037935, half up


def test_the_env_table_replaces_and_adds_models():
    table = pricing.price_table('{"claude-sonnet-5-5": {"input": 1, "output": "5", "cache_write": "1.25", '
                                '"cache_read": "0.05"}, "my-proxy-model": {"input": "0", "output": "0", '
                                '"cache_write": "0", "cache_read": "0"}}')  # fmt: skip
    assert table["claude-sonnet-5-5"].input == Decimal(1)
    assert call_cost({"input": 10**6, "output": 10**6}, table["my-proxy-model"]) == 0
    assert table["claude-haiku-5-5"] == HAIKU


@pytest.mark.parametrize(
    "raw",
    [
        "[1]",
        "{",
        '{"m": {"input": 1}}',
        '{"m": {"input": -1, "output": 1, "cache_write": 1, "cache_read": 1}}',
        '{"m": {"input": "x", "output": 1, "cache_write": 1, "cache_read": 1}}',
        '{"m": {"input": true, "output": 1, "cache_write": 1, "cache_read": 1}}',
        '{"m": {"input": "NaN", "output": 1, "cache_write": 1, "cache_read": 1}}',
    ],
)
def test_a_bad_env_table_is_refused_with_a_reason(raw):
    with pytest.raises(PriceTableInvalid):
        parse_overrides(raw)


def test_an_unknown_model_is_priced_as_the_default_never_free():
    with mock.patch.object(pricing.log, "warning") as warning:
        assert price_for("claude-future-9", PRICES) == SONNET
    assert warning.call_args.args[1:] == ("claude-future-9", "claude-sonnet-5-5")


def test_an_invalid_setting_falls_back_to_the_built_in_table(settings):
    settings.ZEUS_MODEL_PRICES = "{"
    assert pricing.usage_cost("claude-sonnet-5-5", {"input": 10**6}) == Decimal(2)
    settings.ZEUS_MODEL_PRICES = '{"claude-sonnet-5-5": {"input": 3, "output": 1, "cache_write": 1, "cache_read": 1}}'
    assert pricing.usage_cost("claude-sonnet-5-5", {"input": 10**6}) == Decimal(3)


@pytest.mark.parametrize(
    ("usage", "tokens"),
    [
        ({"input": 1000, "output": 500}, 1500),
        ({"cache_read": 10_000}, 500),
        ({"cache_write": 1000}, 1250),
        ({"input": 1, "cache_read": 1}, 2),
    ],
)
def test_budget_tokens_weigh_cache_reads_and_writes_by_their_price(usage, tokens):
    assert pricing.weighted_tokens(usage, SONNET) == tokens

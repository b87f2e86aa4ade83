"""What a model call costs, in USD, from its usage: per-model prices and one pure function.

Prices are USD per million tokens, from Anthropic's pricing page (docs/chat.md, "What a turn costs").
Cache writes are priced at the 5-minute rate: Zeus marks its breakpoints `{"type": "ephemeral"}`, whose
lifetime is five minutes. ZEUS_MODEL_PRICES (JSON) replaces or adds models over the built-in table.
A model in neither is priced at the default model's rates and said so in the log: an unknown price must
never read as free. Costs are kept to the micro-dollar (a call costs fractions of a cent); sums of calls
are summed unrounded, then quantized once.
"""

import functools
import json
import logging
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

log = logging.getLogger(__name__)

MILLION = Decimal(1_000_000)
COST_QUANTUM = Decimal("0.000001")
DEFAULT_MODEL = "claude-sonnet-5-5"
PRICE_KINDS = ("input", "output", "cache_write", "cache_read")


@dataclass(frozen=True)
class Price:
    input: Decimal
    output: Decimal
    cache_write: Decimal  # 5-minute writes
    cache_read: Decimal
    # Haiku 5.5 bills a request whose prompt (input + cache reads + writes) is longer than this many tokens
    # at `long_factor` times every rate, output included.
    long_threshold: int | None = None
    long_factor: Decimal = Decimal(1)


def _price(input, output, cache_write, cache_read, **long) -> Price:
    return Price(Decimal(input), Decimal(output), Decimal(cache_write), Decimal(cache_read), **long)


PRICES: dict[str, Price] = {
    "claude-sonnet-5-5": _price("2", "10", "2.50", "0.10"),
    "claude-haiku-5-5": _price("0.10", "0.50", "0.125", "0.01", long_threshold=100_000, long_factor=Decimal(5)),
    "claude-opus-5-5": _price("4", "20", "5", "0.20"),
    "claude-sonnet-5": _price("2", "10", "2.50", "0.20"),
    "claude-opus-5": _price("5", "25", "6.25", "0.50"),
    "claude-opus-4-8": _price("5", "25", "6.25", "0.50"),
    "claude-opus-4-7": _price("5", "25", "6.25", "0.50"),
    "claude-opus-4-6": _price("5", "25", "6.25", "0.50"),
    "claude-opus-4-5": _price("5", "25", "6.25", "0.50"),
    "claude-sonnet-4-6": _price("3", "15", "3.75", "0.30"),
    "claude-sonnet-4-5": _price("3", "15", "3.75", "0.30"),
    "claude-haiku-4-5": _price("1", "5", "1.25", "0.10"),
}


class PriceTableInvalid(ValueError):
    pass


def parse_overrides(raw: str) -> dict[str, Price]:
    """ZEUS_MODEL_PRICES: {"model": {"input": "2", "output": "10", "cache_write": "2.50", "cache_read": "0.10"}}.
    Numbers or decimal strings; every kind is required. Raises PriceTableInvalid with what is wrong."""
    if not raw or not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise PriceTableInvalid(f"ZEUS_MODEL_PRICES is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PriceTableInvalid("ZEUS_MODEL_PRICES must be a JSON object of model → prices.")
    table = {}
    for model, prices in data.items():
        if not isinstance(prices, dict) or set(PRICE_KINDS) - set(prices):
            raise PriceTableInvalid(f"ZEUS_MODEL_PRICES[{model!r}] needs {', '.join(PRICE_KINDS)}.")
        values = []
        for kind in PRICE_KINDS:
            value = prices[kind]
            try:
                number = Decimal(str(value)) if not isinstance(value, bool) else None
            except InvalidOperation:
                number = None
            if number is None or not number.is_finite() or number < 0:
                raise PriceTableInvalid(f"ZEUS_MODEL_PRICES[{model!r}][{kind!r}] must be a price ≥ 0.")
            values.append(number)
        table[model] = Price(*values)
    return table


def price_table(overrides: str = "") -> dict[str, Price]:
    return {**PRICES, **parse_overrides(overrides)}


def price_for(model: str, table: dict[str, Price]) -> Price:
    price = table.get(model)
    if price is None:
        log.warning("no price for model %s; priced as %s", model, DEFAULT_MODEL)
        price = table.get(DEFAULT_MODEL) or PRICES[DEFAULT_MODEL]
    return price


def call_cost(usage: dict, price: Price) -> Decimal:
    """One call's usage ({"input", "output", "cache_read", "cache_write"} token counts) → USD, unrounded."""
    tokens = {kind: int(usage.get(kind) or 0) for kind in PRICE_KINDS}
    total = (
        tokens["input"] * price.input
        + tokens["output"] * price.output
        + tokens["cache_write"] * price.cache_write
        + tokens["cache_read"] * price.cache_read
    ) / MILLION
    prompt = tokens["input"] + tokens["cache_read"] + tokens["cache_write"]
    if price.long_threshold is not None and prompt > price.long_threshold:
        total *= price.long_factor
    return total


def quantize_cost(amount: Decimal) -> Decimal:
    return Decimal(amount).quantize(COST_QUANTUM, rounding=ROUND_HALF_UP)


def weighted_tokens(usage: dict, price: Price) -> int:
    """The tokens a call counts against a daily token budget: input and output as they are, cache writes and
    reads at their price relative to input (1.25x and 0.05x on Sonnet 5.5), rounded up."""
    if not price.input:
        return int(usage.get("input") or 0) + int(usage.get("output") or 0)
    weighted = (
        Decimal(int(usage.get("input") or 0) + int(usage.get("output") or 0))
        + int(usage.get("cache_write") or 0) * price.cache_write / price.input
        + int(usage.get("cache_read") or 0) * price.cache_read / price.input
    )
    return int(weighted.to_integral_value(rounding="ROUND_CEILING"))


@functools.lru_cache(maxsize=8)
def _table_of(raw: str) -> dict[str, Price]:
    return price_table(raw)


def configured_prices() -> dict[str, Price]:
    """The built-in table with ZEUS_MODEL_PRICES over it (an invalid value is a system check error and
    falls back to the built-in table here, so a turn never fails on it)."""
    from django.conf import settings

    raw = getattr(settings, "ZEUS_MODEL_PRICES", "") or ""
    try:
        return _table_of(raw)
    except PriceTableInvalid:
        return PRICES


def usage_cost(model: str, usage: dict) -> Decimal:
    return call_cost(usage, price_for(model, configured_prices()))

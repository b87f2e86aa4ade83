"""Money: currencies and their exponents, quantizing, parsing shorthand, formatting.

Amounts are `Decimal` end to end. Every boundary quantizes to the currency's exponent (VND 0, USD 2).
"""

import copy
import functools
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from babel import Locale
from babel.numbers import format_currency, format_decimal, get_currency_precision, get_currency_symbol
from django.utils.translation import gettext as _
from iso4217 import Currency

from zeus.errors import ValidationFailed

# Every ISO 4217 currency and its minor unit, from the ISO 4217 list itself (the `iso4217` package ships the
# maintenance agency's table.xml; `iso4217.__published__` dates it). ISO's minor units, not CLDR's display
# digits, are what money is stored and quantized to: CLDR shows IQD, AFN, LAK... without decimals, ISO
# gives them 3 or 2. Funds, metals and test codes (XAU, XDR, XXX) have no minor unit and are no money here.
ISO_EXPONENTS = {c.code: c.exponent for c in sorted(Currency, key=lambda c: c.code) if c.exponent is not None}

# The widest amount the ledger stores: 15 integer digits and 4 decimal places (numeric(19, 4)), room for the
# ISO minor unit of every currency (BHD, KWD... 3; CLF, UYW 4). The columns' places are no currency's:
# every amount is quantized to its own currency's exponent before it is stored or shown.
MAX_DIGITS = 19
DECIMAL_PLACES = 4
MAX_AMOUNT = Decimal("999999999999999")

# The currencies an amount may be kept in: every ISO currency with a minor unit.
CURRENCY_EXPONENTS = ISO_EXPONENTS


def currency_choices() -> list[tuple[str, str]]:
    """The models' choices, a callable so that the list follows the ISO table without a migration."""
    return [(code, code) for code in CURRENCY_EXPONENTS]


DEFAULT_CURRENCY = "VND"


class InvalidAmount(ValidationFailed):
    code = "INVALID_AMOUNT"


class InvalidCurrency(ValidationFailed):
    code = "INVALID_CURRENCY"


def normalize_currency(currency: str) -> str:
    """An ISO 4217 code the ledger keeps, upper-cased; InvalidCurrency for anything else."""
    code = (currency or "").strip().upper() if isinstance(currency, str) else ""
    if code in CURRENCY_EXPONENTS:
        return code
    raise InvalidCurrency(
        _("%(value)r is not an ISO 4217 currency code (VND, USD, EUR, ...).") % {"value": str(currency)[:16]}
    )


# Cached: lists, plans and the batch jobs ask for a currency's exponent and unit for every amount they touch.
@functools.lru_cache(maxsize=64)
def exponent(currency: str) -> int:
    return CURRENCY_EXPONENTS[normalize_currency(currency)]


@functools.lru_cache(maxsize=64)
def minor_unit(currency: str) -> Decimal:
    """The smallest amount of the currency: 1 for VND, 0.01 for USD."""
    return Decimal(1).scaleb(-exponent(currency))


def quantize(amount: Decimal, currency: str) -> Decimal:
    return Decimal(amount).quantize(minor_unit(currency), rounding=ROUND_HALF_UP)


def to_minor(amount: Decimal, currency: str) -> int:
    """Whole minor units (cents, đồng): the plan arithmetic works on these."""
    return int(quantize(amount, currency).scaleb(exponent(currency)))


def from_minor(units: int, currency: str) -> Decimal:
    return quantize(Decimal(units).scaleb(-exponent(currency)), currency)


def file_text(amount: Decimal, currency: str) -> str:
    """An amount as the CSV export writes it: the currency's minor unit, two places at least (`65000.00`,
    `12.50`, `1.234`), as it was written when every money column held two places."""
    value = quantize(amount, currency)
    return str(value if exponent(currency) >= 2 else value.quantize(Decimal("0.01")))


def format_amount(amount: Decimal, currency: str, *, locale: str | None = None) -> str:
    """For people: `150,000 ₫`, `$12.50`.

    With a `locale` (a language code, `vi` or `en`) the number and the symbol follow that locale's rules
    (CLDR through Babel): `1.250.000 ₫` in Vietnamese, `₫1,250,000` in English. Without one the text is the
    locale-neutral form the assistant and the logs read."""
    if locale is not None:
        return _format_for_locale(quantize(amount, currency), currency, locale)
    value = quantize(amount, currency)
    digits = f"{abs(value):,.{exponent(currency)}f}"
    sign = "-" if value < 0 else ""
    symbol = CURRENCY_SYMBOLS.get(currency)
    if currency == "VND":
        return f"{sign}{digits} ₫"
    if symbol:
        return f"{sign}{symbol}{digits}"
    return f"{sign}{digits} {currency}"


CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "KRW": "₩"}


def _format_for_locale(value: Decimal, currency: str, locale: str) -> str:
    shape = _currency_shape(currency, _babel_locale(locale))
    if shape is None:
        return babel_currency_text(value, currency, locale=_babel_locale(locale))
    return _apply_shape(shape, value)


def babel_currency_text(value: Decimal, currency: str, *, locale: str) -> str:
    """Babel's text for an amount, with the ISO minor unit's digits: CLDR shows a few currencies (AFN, LAK,
    RSD...) without the decimals ISO gives them, and an amount is never shown rounded off."""
    if get_currency_precision(currency) == exponent(currency):
        return format_currency(value, currency, locale=locale)
    pattern = copy.copy(Locale.parse(locale).currency_formats["standard"])
    pattern.frac_prec = (exponent(currency), exponent(currency))
    return pattern.apply(value, Locale.parse(locale), currency=currency, currency_digits=False)


def _apply_shape(shape: tuple, value: Decimal) -> str:
    positive, negative, group, decimal, digits = shape
    prefix, suffix = negative if value.is_signed() else positive
    text = f"{abs(value):,.{digits}f}"
    if group != "," or decimal != ".":
        text = text.translate({ord(","): group, ord("."): decimal})
    return f"{prefix}{text}{suffix}"


@functools.cache
def _currency_shape(currency: str, locale: str) -> tuple | None:
    """What Babel's `format_currency` does for one currency in one locale, taken apart once: the prefix and
    suffix (positive, negative), the group and decimal symbols, the digits. A page shows dozens of amounts and
    Babel re-reads its pattern and locale data for each, a visible share of a page's CPU; this gives the
    same text, which is checked here against Babel itself on probe amounts, and else returns None (Babel then
    formats every amount of that pair)."""
    try:
        babel_locale = Locale.parse(locale)
        pattern = babel_locale.currency_formats["standard"]
        symbols = babel_locale.number_symbols["latn"]
        symbol = get_currency_symbol(currency, babel_locale)
    except Exception:  # an unknown locale or currency: Babel says what is wrong when it formats
        return None
    if pattern.grouping != (3, 3) or pattern.exp_prec or pattern.scale:
        return None
    sides = []
    for negative in (0, 1):
        prefix, suffix = pattern.prefix[negative], pattern.suffix[negative]
        if "¤¤" in prefix + suffix or any(c in prefix + suffix for c in "'%‰"):  # a code, a name, quoted text
            return None
        sides.append((prefix.replace("¤", symbol), suffix.replace("¤", symbol)))
    shape = (sides[0], sides[1], symbols["group"], symbols["decimal"], exponent(currency))
    probes = ["0", "-0", "7", "-7", "1234.5", "-1234567.891", "999999999999999.99", "-1000", "0.01", "100000"]
    for probe in probes:
        value = quantize(Decimal(probe), currency)
        if _apply_shape(shape, value) != babel_currency_text(value, currency, locale=locale):
            return None
    return shape


def format_number(value, *, locale: str) -> str:
    """A plain number grouped for the locale: `1.250.000` in Vietnamese, `1,250,000` in English."""
    return format_decimal(value, locale=_babel_locale(locale))


def format_rate(value, *, locale: str) -> str:
    """An exchange rate grouped for the locale with every digit it has: `25.400` or `0,0000393` in Vietnamese."""
    return format_decimal(Decimal(value).normalize(), locale=_babel_locale(locale), decimal_quantization=False)


def _babel_locale(language: str) -> str:
    return (language or "en").split("-")[0].replace("_", "-").lower()


@dataclass(frozen=True)
class ParsedAmount:
    amount: Decimal
    currency: str | None  # named by the text itself ("$12.50", "150k đ"), else None


# Suffix multipliers, longest first so "triệu" wins over "tr". Vietnamese with and without diacritics.
_MULTIPLIERS = {
    "nghìn": 3, "nghin": 3, "ngàn": 3, "ngan": 3, "k": 3, "K": 3, "thousand": 3,
    "triệu": 6, "trieu": 6, "tr": 6, "m": 6, "M": 6, "mil": 6, "million": 6,
    "tỷ": 9, "tỉ": 9, "ty": 9, "ti": 9, "bn": 9, "b": 9, "B": 9, "billion": 9,
}  # fmt: skip
_CURRENCY_MARKS = {
    "₫": "VND", "đ": "VND", "Đ": "VND", "vnd": "VND", "vnđ": "VND", "dong": "VND", "đồng": "VND", "d": "VND",
    "$": "USD", "us$": "USD", "usd": "USD",
    "€": "EUR", "eur": "EUR", "£": "GBP", "gbp": "GBP",
}  # fmt: skip
_MULT_ALT = "|".join(sorted(map(re.escape, _MULTIPLIERS), key=len, reverse=True))
_CUR_ALT = "|".join(sorted(map(re.escape, _CURRENCY_MARKS), key=len, reverse=True))
_AMOUNT_RE = re.compile(
    rf"""^
    (?P<pre>{_CUR_ALT})?\s*
    (?P<num>\d[\d.,\s]*\d|\d)
    \s*(?P<mult>{_MULT_ALT})?
    \s*(?P<post>{_CUR_ALT})?
    $""",
    re.VERBOSE | re.IGNORECASE,
)
# The same amounts inside running text (a reply, a message): numbers grouped by `.`/`,` (or a no-break
# space), with an optional currency mark before or after and an optional multiplier. A multiplier or mark
# made of letters must end the word, so "15 transactions" is no "15 tr" and "30 days" no "30 d".
# Each match can be handed to parse_amount.
_WORD_END = r"(?![^\W\d_])"
AMOUNT_IN_TEXT = re.compile(
    rf"""(?<![\w.,])
    (?P<pre>(?:us\$|\$|€|£)\s?)?
    (?P<num>\d{{1,3}}(?:[.,\u00a0\u202f]\d{{3}})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)
    (?:\s?(?P<mult>(?:{_MULT_ALT}){_WORD_END}))?
    (?:\s?(?P<post>(?:{_CUR_ALT}){_WORD_END}))?
    (?![\w])""",
    re.VERBOSE | re.IGNORECASE,
)
# A leading group never starts with 0: `0.001` is a fraction, not one thousand grouped.
_GROUPED = re.compile(r"^[1-9]\d{0,2}([.,\s]\d{3})+$")
# India's lakh and crore grouping (`3,11,760`, `1,20,04,500`): pairs of digits above the last three. Never another
# reading: a decimal comma has no second comma after it.
_LAKH_GROUPED = re.compile(r"^[1-9]\d?(,\d\d)+,\d{3}$")
_WHITESPACE = re.compile(r"\s")
_SEPARATORS = re.compile(r"[.,]")


def _number(text: str, has_multiplier: bool, lone_point: bool = False) -> Decimal:
    """Reads `150.000`, `150,000`, `1,234.56`, `1.234,56`, `1.5`, `12,5`, `1 000 000`.

    A separator followed by exactly three digits, repeated, groups thousands (the Vietnamese `150.000` and
    the English `150,000` both mean one hundred fifty thousand). Otherwise the last separator is the
    decimal point. With a multiplier (`1.5m`), or with `lone_point` (an amount of a currency whose minor unit
    has three digits or more: `1.234` KWD), a lone separator is always the decimal point.
    """
    # Any whitespace may group thousands (a no-break space does in many locales): read it as a space.
    text = _WHITESPACE.sub(" ", text)
    compact = text.replace(" ", "")
    if " " in text and not _GROUPED.match(text):
        raise InvalidAmount(_("%(text)r is not an amount.") % {"text": text})
    seps = [c for c in compact if c in ".,"]
    if not seps:
        return _decimal(compact)
    lone_is_point = lone_point and len(seps) == 1
    if not has_multiplier and not lone_is_point and _GROUPED.match(compact) and len(set(seps)) == 1:
        return _decimal(_SEPARATORS.sub("", compact))
    if _LAKH_GROUPED.match(compact):
        return _decimal(compact.replace(",", ""))
    last = max(compact.rfind("."), compact.rfind(","))
    integer, fraction = compact[:last], compact[last + 1 :]
    group_sep = {c for c in integer if c in ".,"}
    if group_sep:
        grouped = _GROUPED.match(integer) or (group_sep == {","} and _LAKH_GROUPED.match(integer))
        if len(group_sep) > 1 or compact[last] in group_sep or not grouped:
            raise InvalidAmount(_("%(text)r is not an amount.") % {"text": text})
        integer = _SEPARATORS.sub("", integer)
    if not fraction.isdigit() or not integer.isdigit():
        raise InvalidAmount(_("%(text)r is not an amount.") % {"text": text})
    return _decimal(f"{integer}.{fraction}")


def _decimal(digits: str) -> Decimal:
    try:
        return Decimal(digits)
    except InvalidOperation:
        raise InvalidAmount(_("%(digits)r is not an amount.") % {"digits": digits}) from None


def parse_amount(value, *, decimals: int = 2) -> ParsedAmount:
    """One parser for every amount a person or the model types.

    Accepts numbers and strings: `150000`, `12.5`, `150k`, `1.5m`, `2tr`, `2 triệu`, `150.000`,
    `150,000đ`, `$12.50`, `3 tỷ`. Returns the amount (positive or zero, unquantized) and the currency the
    text named, if any. Raises InvalidAmount for anything else, including negatives, NaN and booleans.
    `decimals`, the minor unit's digits of the currency the amount is in: at three or more, `1.234` is read
    with its decimal point (a dinar amount), not as one thousand two hundred thirty-four.
    """
    if isinstance(value, bool) or value is None:
        raise InvalidAmount(_("An amount is required."))
    if isinstance(value, int):
        amount, currency = Decimal(value), None
    elif isinstance(value, float | Decimal):
        try:
            amount = Decimal(str(value))
        except InvalidOperation as exc:
            raise InvalidAmount(_("%(value)r is not an amount.") % {"value": value}) from exc
        currency = None
    elif isinstance(value, str):
        text = value.strip()
        if len(text) > 64:
            raise InvalidAmount(_("That amount is too long."))
        match = _AMOUNT_RE.match(text)
        if not match:
            raise InvalidAmount(_("%(value)r is not an amount; try 150000, 150k, 2tr or $12.50.") % {"value": value})
        pre, post = match["pre"], match["post"]
        if pre and post:
            raise InvalidAmount(_("%(value)r names its currency twice.") % {"value": value})
        mark = pre or post
        currency = _CURRENCY_MARKS.get(mark) or _CURRENCY_MARKS.get(mark.lower()) if mark else None
        mult = match["mult"]
        amount = _number(match["num"], has_multiplier=bool(mult), lone_point=decimals >= 3)
        if mult:
            power = _MULTIPLIERS.get(mult, _MULTIPLIERS.get(mult.lower()))
            amount = amount.scaleb(power)
    else:
        raise InvalidAmount(_("%(value)r is not an amount.") % {"value": value})
    if not amount.is_finite() or amount < 0:
        raise InvalidAmount(_("%(value)r is not a positive amount.") % {"value": value})
    if amount > MAX_AMOUNT:
        raise InvalidAmount(_("That amount is too large."))
    if amount == amount.to_integral_value():
        amount = amount.quantize(Decimal(1))
    return ParsedAmount(amount=amount, currency=currency)


def parse_money(value, currency: str, *, field: str = "amount", allow_zero: bool = False) -> Decimal:
    """Parses and quantizes to `currency`; errors name `field`. A currency named in the text must agree."""
    currency = normalize_currency(currency)
    try:
        parsed = parse_amount(value, decimals=exponent(currency))
        if parsed.currency and parsed.currency != currency:
            raise InvalidAmount(
                _("%(value)r is in %(currency)s, but this amount is in %(currency2)s.")
                % {"value": value, "currency": parsed.currency, "currency2": currency}
            )
        amount = quantize(parsed.amount, currency)
        if amount != parsed.amount:
            # Rounding what a person typed would store a different sum than they meant: 1.2345 KWD is no
            # amount of a currency whose smallest unit is 0.001.
            raise InvalidAmount(
                _(
                    "%(value)r has more decimals than %(currency)s has (%(currency2)s); "
                    "its smallest amount is %(currency3)s."
                )
                % {
                    "value": value,
                    "currency": currency,
                    "currency2": exponent(currency),
                    "currency3": minor_unit(currency),
                }
            )
        if amount == 0 and not allow_zero:
            raise InvalidAmount(_("The amount must be greater than zero."))
    except InvalidAmount as exc:
        raise InvalidAmount(exc.message, fields={field: [exc.message]}) from None
    return amount

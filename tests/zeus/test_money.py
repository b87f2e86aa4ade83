import random
from decimal import Decimal

import pytest
from babel.numbers import format_currency, get_currency_precision
from django.utils import translation

from zeus.errors import ValidationFailed
from zeus.money import (
    CURRENCY_EXPONENTS,
    DECIMAL_PLACES,
    ISO_EXPONENTS,
    InvalidAmount,
    InvalidCurrency,
    babel_currency_text,
    exponent,
    file_text,
    format_amount,
    from_minor,
    minor_unit,
    normalize_currency,
    parse_amount,
    parse_money,
    quantize,
    to_minor,
)

D = Decimal


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("150k", D("150000"), None),
        ("150K", D("150000"), None),
        ("150 k", D("150000"), None),
        ("150.5k", D("150500"), None),
        ("1.5m", D("1500000"), None),
        ("1.5M", D("1500000"), None),
        ("2tr", D("2000000"), None),
        ("2TR", D("2000000"), None),
        ("1,5tr", D("1500000"), None),
        ("2 triệu", D("2000000"), None),
        ("2 trieu", D("2000000"), None),
        ("2 TRIỆU", D("2000000"), None),
        ("5 ngàn", D("5000"), None),
        ("3 tỷ", D("3000000000"), None),
        ("2 tỉ", D("2000000000"), None),
        ("1.5 Tỷ", D("1500000000"), None),
        ("3bn", D("3000000000"), None),
        ("150.000", D("150000"), None),
        ("150,000", D("150000"), None),
        ("1.000.000", D("1000000"), None),
        ("1,000,000", D("1000000"), None),
        ("1 000 000", D("1000000"), None),
        ("1\u00a0000", D("1000"), None),
        ("1\u202f000", D("1000"), None),
        ("150,000đ", D("150000"), "VND"),
        ("150.000 VND", D("150000"), "VND"),
        ("₫150000", D("150000"), "VND"),
        ("1.5 triệu đồng", D("1500000"), "VND"),
        ("$12.50", D("12.50"), "USD"),
        ("USD 12.50", D("12.50"), "USD"),
        ("12.50 usd", D("12.50"), "USD"),
        ("€5", D("5"), "EUR"),
        ("1,234.56", D("1234.56"), None),
        ("1.234,56", D("1234.56"), None),
        ("12,5", D("12.5"), None),
        ("1.5", D("1.5"), None),
        ("0.001", D("0.001"), None),
        ("  150k  ", D("150000"), None),
        ("0", D("0"), None),
        (150000, D("150000"), None),
        (0, D("0"), None),
        (12.5, D("12.5"), None),
        (0.1, D("0.1"), None),
        (D("12.345"), D("12.345"), None),
        (D("999999999999999"), D("999999999999999"), None),
    ],
)
def test_it_reads_amounts_people_type(text, amount, currency):
    parsed = parse_amount(text)
    assert parsed.amount == amount
    assert parsed.currency == currency


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "abc",
        "k",
        "$",
        "-5",
        "+5",
        -1,
        D("-0.01"),
        "1.2.3",
        "1,2,3",
        "1,,000",
        "1, 000",
        "1 000.5",
        "1.",
        ".5",
        "1e5",
        "1e-5",
        "1_000",
        "150kk",
        True,
        False,
        None,
        [],
        {},
        [150000],
        "NaN",
        "nan",
        "inf",
        "Infinity",
        float("nan"),
        float("inf"),
        D("NaN"),
        D("sNaN"),
        D("Infinity"),
        "1" * 100,
        "$5 đ",
        "1000000000000000",
        10**16,
        "9" * 30,
        1e300,
    ],
)
def test_it_refuses_what_is_not_an_amount(text):
    with pytest.raises(InvalidAmount):
        parse_amount(text)


def test_malformed_amounts_are_validation_errors_naming_the_field():
    with pytest.raises(ValidationFailed) as caught:
        parse_money("abc", "VND", field="balance")
    assert caught.value.code == "INVALID_AMOUNT"
    assert "balance" in caught.value.fields


@pytest.mark.parametrize(
    ("value", "currency", "expected"),
    [
        ("150k", "VND", D("150000")),
        ("12.345", "VND", D("12345")),
        ("12.50", "USD", D("12.50")),
        (D("1.2000"), "KWD", D("1.200")),
        ("1.234", "kwd", D("1.234")),  # a dinar's unit has three digits: the point is a decimal point
        ("1,234.5", "KWD", D("1234.500")),
        ("1.234.567", "KWD", D("1234567.000")),
        ("1.234", "USD", D("1234.00")),
        ("0.0001", "CLF", D("0.0001")),
        ("$12.50", "usd", D("12.50")),
        ("150,000đ", "VND", D("150000")),
        (1, "USD", D("1.00")),
    ],
)
def test_parse_money_quantizes_to_the_currency(value, currency, expected):
    amount = parse_money(value, currency)
    assert amount == expected
    assert amount.as_tuple().exponent == expected.as_tuple().exponent


@pytest.mark.parametrize(
    ("value", "currency"),
    [("12.5", "VND"), (D("12.345"), "USD"), ("1.2345", "KWD"), (D("0.00001"), "CLF"), (1.5, "JPY")],
)
def test_parse_money_refuses_more_decimals_than_the_currency_has(value, currency):
    """Rounding would keep a sum nobody typed: 1.2345 KWD is no amount of a currency whose unit is 0.001."""
    with pytest.raises(InvalidAmount) as caught, translation.override("en"):
        parse_money(value, currency, field="amount")
    assert f"more decimals than {currency} has" in caught.value.message
    assert "amount" in caught.value.fields


def test_parse_money_refuses_zero_unless_allowed():
    with pytest.raises(InvalidAmount):
        parse_money("0", "VND")
    with pytest.raises(InvalidAmount):
        parse_money("0.004", "USD")
    assert parse_money("0", "VND", allow_zero=True) == 0


def test_parse_money_refuses_a_currency_the_text_contradicts():
    with pytest.raises(InvalidAmount) as caught:
        parse_money("$12.50", "VND")
    assert "USD" in caught.value.message


def test_parse_money_refuses_an_unknown_currency():
    with pytest.raises(InvalidCurrency):
        parse_money("5", "XYZ")


@pytest.mark.parametrize(("code", "normal"), [("vnd", "VND"), (" usd ", "USD"), ("EUR", "EUR")])
def test_currency_codes_are_normalized(code, normal):
    assert normalize_currency(code) == normal


@pytest.mark.parametrize("code", ["", None, "XYZ", "US", "dollars"])
def test_unknown_currencies_are_refused(code):
    with pytest.raises(InvalidCurrency):
        normalize_currency(code)


@pytest.mark.parametrize(
    ("amount", "currency", "expected"),
    [
        (D("12.345"), "USD", D("12.35")),
        (D("12.344"), "USD", D("12.34")),
        (D("1500.5"), "VND", D("1501")),
        (D("1499.4"), "VND", D("1499")),
        (D("7"), "JPY", D("7")),
    ],
)
def test_quantize_rounds_half_up_to_the_currency_exponent(amount, currency, expected):
    assert quantize(amount, currency) == expected
    assert quantize(amount, currency).as_tuple().exponent == -{"USD": 2}.get(currency, 0)


def test_minor_units_round_trip():
    assert minor_unit("VND") == D("1")
    assert minor_unit("USD") == D("0.01")
    assert to_minor(D("12.50"), "USD") == 1250
    assert to_minor(D("150000"), "VND") == 150000
    assert from_minor(1250, "USD") == D("12.50")
    assert from_minor(150000, "VND") == D("150000")
    assert from_minor(to_minor(D("0.07"), "USD"), "USD") == D("0.07")


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [
        (D("150000"), "VND", "150,000 ₫"),
        (D("12.5"), "USD", "$12.50"),
        (D("-3.456"), "EUR", "-€3.46"),
        (D("1234567"), "JPY", "¥1,234,567"),
        (D("10"), "SGD", "10.00 SGD"),
    ],
)
def test_format_amount_for_people(amount, currency, text):
    assert format_amount(amount, currency) == text


def test_amounts_for_a_locale_read_exactly_as_babel_writes_them():
    """format_amount takes Babel's currency pattern apart once per currency and locale (zeus.money) instead
    of asking Babel for every amount: the text must be Babel's, character for character."""
    rng = random.Random(14)
    values = ["0", "-0", "1", "-1", "0.01", "-0.5", "999", "1000", "-1000", "1250000", "999999999999999.99"]
    values += [str(Decimal(rng.randint(-(10**15), 10**15)).scaleb(-rng.randint(0, 2))) for _ in range(200)]
    for language in ["vi", "en"]:
        for currency in CURRENCY_EXPONENTS:
            for text in values:
                value = quantize(Decimal(text), currency)
                assert format_amount(value, currency, locale=language) == babel_currency_text(
                    value, currency, locale=language
                ), (language, currency, text)


def test_every_iso_4217_currency_is_known_with_its_minor_unit():
    """ISO's minor units, not CLDR's display digits: the two differ for AFN, LAK, RSD, IQD..."""
    assert len(ISO_EXPONENTS) > 150
    assert {c: ISO_EXPONENTS[c] for c in ["VND", "JPY", "KRW", "ISK", "CLP", "IDR", "HUF", "TWD", "USD", "BHD"]} == {
        "VND": 0, "JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "IDR": 2, "HUF": 2, "TWD": 2, "USD": 2, "BHD": 3,
    }  # fmt: skip
    assert exponent("lak") == 2 and get_currency_precision("LAK") == 0
    assert quantize(Decimal("12.345"), "AFN") == Decimal("12.35")
    assert quantize(Decimal("1234.5"), "ISK") == Decimal("1235")
    assert "XAU" not in ISO_EXPONENTS and "XXX" not in ISO_EXPONENTS  # no minor unit: no money


@pytest.mark.parametrize("code", ["XAU", "ZZZ", "US", "", "usdd", None, 12])
def test_a_code_that_is_no_iso_currency_is_refused(code):
    with pytest.raises(InvalidCurrency):
        normalize_currency(code)


def test_every_currency_with_a_minor_unit_is_kept_with_it_three_and_four_decimals_too():
    assert CURRENCY_EXPONENTS == ISO_EXPONENTS
    assert {c: exponent(c) for c in ["BHD", "KWD", "JOD", "OMR", "TND", "LYD", "IQD", "CLF"]} == {
        "BHD": 3, "KWD": 3, "JOD": 3, "OMR": 3, "TND": 3, "LYD": 3, "IQD": 3, "CLF": 4,
    }  # fmt: skip
    assert normalize_currency("kwd") == "KWD"
    assert quantize(Decimal("1.2345"), "KWD") == Decimal("1.235")
    assert format_amount(Decimal("1.234"), "KWD") == "1.234 KWD"
    assert max(ISO_EXPONENTS.values()) <= DECIMAL_PLACES  # the money columns hold every minor unit


def test_an_amount_shows_the_iso_digits_where_cldr_shows_fewer():
    assert format_amount(Decimal("1234.5"), "LAK", locale="en") == format_currency(
        Decimal("1234.5"), "LAK", locale="en", currency_digits=False
    )
    assert format_amount(Decimal("1234.5"), "LAK", locale="en").endswith("1,234.50")


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [(D("65000.0000"), "VND", "65000.00"), (D("12.5000"), "USD", "12.50"), (D("1.2340"), "KWD", "1.234"),
     (D("0.0001"), "CLF", "0.0001")],
)  # fmt: skip
def test_the_csv_export_writes_amounts_as_the_two_place_columns_did(amount, currency, text):
    assert file_text(amount, currency) == text

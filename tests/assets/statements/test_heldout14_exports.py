# ruff: noqa: RUF001
"""Table tests of the readers on the bank exports found on heldout14 after its one measurement: Japanese banks'
and cards' CSVs (Shift JIS or UTF-8, their header words, a card's `利用金額` charges, yen with no minor unit)
and Chase's card, booked on its `Post Date` as every other file with a booking and a transaction date is.
Each case a few lines as such a file has them (figures made up), and what it must give."""

import datetime as dt
import io
from decimal import Decimal

import pytest

from assets.statements import textfile
from assets.statements.headers import auto_mapping
from assets.statements.read import statement_rows
from zeus.errors import ValidationFailed


def rows_of(raw: bytes, currency: str):
    rows, _ = statement_rows(io.BytesIO(raw), kind="csv", head=raw, currency=currency)
    return [(r.occurred_on, r.direction, r.amount, r.problems) for r in rows]


RAKUTEN_BANK = "取引日,入出金(円),取引後残高(円),入出金内容\r\n20230407,3146,5113,あいうえお\r\n"
SUMISHIN = (
    '"日付","内容","出金金額(円)","入金金額(円)","残高(円)","メモ"\r\n'
    '"2024/01/11","ＡＴＭ　イーネット","35,000",,"5,000","-"\r\n'
)
JA_BANK = (
    '"番号","取扱日付","お支払金額","お預り金額","残高","摘要"\r\n"001","2024/04/30","","\\7,000","\\7,000","ｳｳ"\r\n'
)


# Full-width symbols a Japanese bank writes (`㈱` for a company, `※` for a note) beside half-width katakana.
SYMBOLS = "お取引日,お取引内容,出金金額\r\n2024/01/26,ﾌﾘｺﾐ ㈱ﾔﾏﾀﾞ※手数料込,110\r\n"


@pytest.mark.parametrize(
    "text", [RAKUTEN_BANK, SUMISHIN, JA_BANK, SYMBOLS], ids=["kana", "full-width", "half-width", "symbols"]
)
def test_japanese_text_in_shift_jis_is_read_as_shift_jis(text):
    raw = text.encode("cp932")
    assert textfile.encoding_of(io.BytesIO(raw), raw) == "cp932"


@pytest.mark.parametrize(
    ("raw", "encoding"),
    [
        # Each umlaut before a letter reads as a lone kanji in cp932 (`Datentr` + kanji + `ger`).
        (
            "Buchungstag;Text;Betrag\r\n03.07.2013;Datenträger-Umsatz Verständigung;150,00\r\n".encode("cp1252"),
            "cp1252",
        ),
        # Cyrillic capitals are half-width katakana in cp932; no full-width kana among them.
        ("ДАТА;ОПИС;СУМА\r\n09.01.2020;ПЕРЕКАЗ КОШТІВ;-150,00\r\n".encode("cp1251"), "cp1251"),
    ],
    ids=["german-umlauts", "cyrillic-capitals"],
)
def test_western_and_cyrillic_text_is_not_taken_for_shift_jis(raw, encoding):
    assert textfile.encoding_of(io.BytesIO(raw), raw) == encoding


def test_shift_jis_with_a_user_defined_character_is_refused_not_guessed():
    # 0xF040: the first of cp932's user-defined characters, which only the writer's own font can show.
    raw = "日付,内容,金額\r\n2024/01/26,振込".encode("cp932") + b"\xf0\x40" + b",100\r\n"
    with pytest.raises(ValidationFailed) as caught:
        rows_of(raw, "JPY")
    assert caught.value.code == "CSV_NOT_UTF8"


@pytest.mark.parametrize(
    ("header", "want"),
    [
        (
            ["取引日", "入出金(円)", "取引後残高(円)", "入出金内容"],
            {"date": "取引日", "amount": "入出金(円)", "description": "入出金内容"},
        ),
        (
            ["取引日", "摘要", "出金金額", "入金金額", "残高"],
            {"date": "取引日", "description": "摘要", "debit": "出金金額", "credit": "入金金額"},
        ),
        (
            ["日付", "内容", "出金金額(円)", "入金金額(円)", "残高(円)", "メモ"],
            {"date": "日付", "description": "内容", "debit": "出金金額(円)", "credit": "入金金額(円)"},
        ),
        # Rakuten Card's bill: what each line costs this bill (an instalment's part), not what it cost when used.
        (
            ["利用日", "利用店名・商品名", "利用者", "支払方法", "利用金額", "支払手数料", "支払総額", "10月支払金額"],
            {"date": "利用日", "description": "利用店名・商品名", "amount": "10月支払金額"},
        ),
        (
            ["番号", "明細区分", "取扱日付", "起算日", "お支払金額", "お預り金額", "取引区分", "残高", "摘要"],
            {"date": "取扱日付", "debit": "お支払金額", "credit": "お預り金額", "description": "摘要"},
        ),
        # Voiced kana (`ご`) fold as the header cell does.
        (
            ["ご利用日", "ご利用店名", "ご利用金額"],
            {"date": "ご利用日", "description": "ご利用店名", "amount": "ご利用金額"},
        ),
        # Chase's card: the booking day (`Post Date`), not the day the card was used.
        (
            ["Transaction Date", "Post Date", "Description", "Category", "Type", "Amount", "Memo"],
            {"date": "Post Date", "description": "Description", "amount": "Amount"},
        ),
    ],
    ids=["rakuten-bank", "shinsei", "sumishin", "rakuten-card", "ja-bank", "voiced-kana", "chase-card"],
)
def test_japanese_header_words_and_the_booking_date(header, want):
    assert auto_mapping(header) == want


CHASE_CARD = (
    "Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n"
    "04/09/2024,04/09/2024,AUTOMATIC PAYMENT - THANK,,Payment,123.45,\n"
    "04/03/2024,04/05/2024,APPLE.COM/BILL,Shopping,Sale,-1.23,\n"
)
RAKUTEN_CARD = (
    '\ufeff"利用日","利用店名・商品名","利用者","支払方法","利用金額","支払手数料","支払総額"\r\n'
    '"2019/09/07","ローソン","本人","1回払い","1051","0","1051"\r\n'
    '"2019/09/09","ローソン","本人","1回払い","-300","0","-300"\r\n'
)


@pytest.mark.parametrize(
    ("raw", "currency", "want"),
    [
        # Booked on the `Post Date`, as Capital One's `Posted Date` and the other cards' booking days.
        (
            CHASE_CARD.encode(),
            "USD",
            [
                (dt.date(2024, 4, 9), "income", Decimal("123.45"), {}),
                (dt.date(2024, 4, 5), "expense", Decimal("1.23"), {}),
            ],
        ),
        # A card's `利用金額`: a positive figure a charge (out), a negative one a refund (in); yen, no minor unit.
        (
            RAKUTEN_CARD.encode(),
            "JPY",
            [
                (dt.date(2019, 9, 7), "expense", Decimal("1051"), {}),
                (dt.date(2019, 9, 9), "income", Decimal("300"), {}),
            ],
        ),
        (RAKUTEN_BANK.encode("cp932"), "JPY", [(dt.date(2023, 4, 7), "income", Decimal("3146"), {})]),
        # `35,000` yen is thirty-five thousand (yen has no minor unit to be a decimal comma's).
        (SUMISHIN.encode("cp932"), "JPY", [(dt.date(2024, 1, 11), "expense", Decimal("35000"), {})]),
        # Shift JIS's yen sign sits at ASCII's backslash: `\7,000` is 7,000 yen.
        (JA_BANK.encode("cp932"), "JPY", [(dt.date(2024, 4, 30), "income", Decimal("7000"), {})]),
    ],
    ids=["chase-post-date", "rakuten-card-charges", "rakuten-bank-sjis", "sumishin-sjis", "ja-bank-yen"],
)
def test_rows_of_japanese_exports_and_chases_card(raw, currency, want):
    got = rows_of(raw, currency)
    assert got == want
    assert all(amount.as_tuple().exponent == (0 if currency == "JPY" else -2) for _, _, amount, _ in got)


def test_a_backslash_is_no_yen_sign_in_another_currency():
    [(_, _, _, problems)] = rows_of(JA_BANK.encode("cp932"), "USD")
    assert "amount" in problems

"""Table tests of the readers on the Japanese downloads found on heldout41 after its one measurement: MUFG's
account download (`支払い金額` paid out, `預かり金額` paid in) and View Card's statement (`ご利用箇所` where the card
was used, `ご利用額` the amount used: a charge), with a card-holder line inside the table. Figures made up."""

import datetime as dt
from decimal import Decimal

from tests.assets.statements.tables import csv_rows


def test_mufg_names_its_columns_paid_out_and_paid_in():
    text = (
        '"日付","摘要","摘要内容","支払い金額","預かり金額","差引残高","メモ","未資金化区分","入払区分"\n'
        '"2023/4/22","ゆうちょ","リヨウキヨク","9,000","","150,542","","","支払い"\n'
        '"2023/4/25","給与","カブシキガイシヤ","","250,000","400,542","","","預かり"\n'
    )
    assert [row[:3] for row in csv_rows(text, "JPY")] == [
        (dt.date(2023, 4, 22), "expense", Decimal("9000")),
        (dt.date(2023, 4, 25), "income", Decimal("250000")),
    ]


def test_a_view_card_statement_books_each_amount_used_as_a_charge():
    text = (
        '会員番号,****-****-****-1234\n対象カード,「ビュー・スイカ｣カード\n今回お支払金額,"3,524"\n\n'
        "ご利用年月日,ご利用箇所,ご利用額,払戻額,ご請求額（うち手数料・利息）,支払区分（回数）,今回回数\n"  # noqa: RUF001
        "****-****-****-1234 テスト　ユーザー\n"
        '2020/03/21,板橋駅　オートチャージ,"3,000",,"3,000",１回払,\n'
        "2020/03/31,カード年会費,524,,524,１回払,\n"
    )
    assert [row[:3] for row in csv_rows(text, "JPY")] == [
        (dt.date(2020, 3, 21), "expense", Decimal("3000")),
        (dt.date(2020, 3, 31), "expense", Decimal("524")),
    ]

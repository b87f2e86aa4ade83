"""Header names in languages no corpus file holds yet (Turkish, Korean, Thai, Greek, Croatian and Serbian, Malay,
Romanian, Bulgarian, Slovenian): the words those banks' exports put over their columns, each read as the same
role as its English or Vietnamese twin, with the scripts' own letters kept (Korean's syllables split into jamo by
folding, Thai's marks dropped, Turkish's dotless i), the words a direction column says each line's way with in
those and other languages, and Thai banks' years of the Buddhist era. Figures made up."""

import datetime as dt
from decimal import Decimal

import pytest

from assets.statements.dates import read_date
from assets.statements.headers import auto_mapping
from tests.assets.statements.test_heldout17_exports import rows_of


@pytest.mark.parametrize(
    ("header", "roles"),
    [
        (["İşlem Tarihi", "Açıklama", "Tutar", "Bakiye"], ("date", "description", "amount")),  # noqa: RUF001
        (["Tarih", "Açıklama", "Borç", "Alacak", "Bakiye"], ("date", "description", "debit", "credit")),  # noqa: RUF001
        (["거래일시", "적요", "출금액", "입금액", "거래후잔액"], ("date", "description", "debit", "credit")),
        (["거래일자", "기재내용", "찾으신금액", "맡기신금액", "잔액"], ("date", "description", "debit", "credit")),
        (["วันที่ทำรายการ", "รายการ", "ถอนเงิน", "ฝากเงิน", "ยอดคงเหลือ"], ("date", "description", "debit", "credit")),
        (["Ημερομηνία", "Περιγραφή", "Ποσό", "Υπόλοιπο"], ("date", "description", "amount")),
        (["Ημερομηνία", "Αιτιολογία", "Χρέωση", "Πίστωση"], ("date", "description", "debit", "credit")),
        (
            ["Datum knjiženja", "Datum valute", "Opis plaćanja", "Isplata", "Uplata", "Stanje"],
            ("date", "description", "debit", "credit"),
        ),
        (["Tarikh Transaksi", "Butiran", "Amaun", "Baki"], ("date", "description", "amount")),
        (["Data", "Descriere", "Debit", "Credit", "Sold"], ("date", "description", "debit", "credit")),
        (["Дата", "Описание", "Дебит", "Кредит", "Салдо"], ("date", "description", "debit", "credit")),
        (["Datum", "Namen", "Breme", "Dobro"], ("date", "description", "debit", "credit")),
    ],
)
def test_a_header_in_a_language_zeus_had_not_read_maps_each_column(header, roles):
    mapping = auto_mapping(header)
    assert mapping is not None
    assert tuple(mapping) == roles
    # The first column is the date (a value date beside a booking date is not), the balance never a figure.
    assert mapping["date"] == header[0]


def test_a_korean_banks_withdrawals_and_deposits():
    raw = (
        "거래일시,적요,출금액,입금액,거래후잔액\n"
        "2026.01.02 09:15:00,스타벅스,4500,,95500\n"
        "2026.01.03 18:00:00,급여,,2000000,2095500\n"
    )
    assert [r[:3] for r in rows_of(raw.encode(), "KRW")] == [
        (dt.date(2026, 1, 2), "expense", Decimal("4500")),
        (dt.date(2026, 1, 3), "income", Decimal("2000000")),
    ]


def test_a_turkish_banks_signed_amount_under_its_dotless_i():
    raw = "İşlem Tarihi;Açıklama;Tutar;Bakiye\n02.01.2026;MARKET;-125,50;874,50\n03.01.2026;MAAŞ;1.000,00;1.874,50\n"  # noqa: RUF001
    assert [r[:3] for r in rows_of(raw.encode(), "TRY")] == [
        (dt.date(2026, 1, 2), "expense", Decimal("125.50")),
        (dt.date(2026, 1, 3), "income", Decimal("1000.00")),
    ]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("02/01/2569", dt.date(2026, 1, 2)),
        ("2569-01-02", dt.date(2026, 1, 2)),
        ("2 Jan 2569", dt.date(2026, 1, 2)),
        ("29/02/2567", dt.date(2024, 2, 29)),
        ("02/01/2026", dt.date(2026, 1, 2)),
        ("02/01/26", dt.date(2026, 1, 2)),
    ],
)
def test_a_year_of_the_buddhist_era_is_the_common_eras(text, day):
    assert read_date(text) == day


def test_a_thai_banks_withdrawals_and_deposits_dated_in_the_buddhist_era():
    raw = (
        "วันที่ทำรายการ,รายการ,ถอนเงิน,ฝากเงิน,ยอดคงเหลือ\n"
        '02/01/2569,ชำระค่าสินค้า,"1,250.00",,"8,750.00"\n'
        '03/01/2569,รับโอนเงิน,,"20,000.00","28,750.00"\n'
    )
    assert [r[:3] for r in rows_of(raw.encode(), "THB")] == [
        (dt.date(2026, 1, 2), "expense", Decimal("1250.00")),
        (dt.date(2026, 1, 3), "income", Decimal("20000.00")),
    ]


@pytest.mark.parametrize(
    ("header", "out", "into"),
    [
        ("Debit/Credit", "Cargo", "Abono"),
        ("Debit/Credit", "Débito", "Crédito"),
        ("借贷标志", "借", "贷"),
        ("收/支", "支出", "收入"),
        ("Debit/Credit", "出金", "入金"),
        ("Debit/Credit", "출금", "입금"),
        ("Debit/Credit", "ถอน", "ฝาก"),
        ("Debit/Credit", "Borç", "Alacak"),
        ("Debit/Credit", "Obciążenie", "Uznanie"),
        ("Debit/Credit", "Odchozí", "Příchozí"),
        ("Debit/Credit", "Списание", "Зачисление"),
        ("Debit/Credit", "Addebito", "Accredito"),
        ("Debit/Credit", "Saída", "Entrada"),
    ],
)
def test_a_direction_columns_words_give_unsigned_figures_their_way(header, out, into):
    raw = f"Date,Description,Amount,{header}\n2026-01-02,Coffee,12.50,{out}\n2026-01-03,Salary,1000.00,{into}\n"
    assert [r[1:3] for r in rows_of(raw.encode())] == [("expense", Decimal("12.50")), ("income", Decimal("1000.00"))]


def test_santander_chiles_cargo_abono_letters_leave_its_signed_figures_as_written():
    """`C` is a cargo (money out) under Spanish `Cargo/Abono` and a credit under English names: the column names no
    direction, and the figures' own signs stand."""
    raw = (
        "MONTO,DESCRIPCIÓN MOVIMIENTO,FECHA,CARGO/ABONO\n"
        "-4095800,Transf.Internet,03/09/2018,C\n568600,Depósito,03/09/2018,A\n"
    )
    assert [r[1:3] for r in rows_of(raw.encode(), "CLP")] == [
        ("expense", Decimal("4095800")),
        ("income", Decimal("568600")),
    ]


def test_bcas_jumlah_with_its_side_written_after_it():
    raw = (
        "Tanggal Transaksi,Keterangan,Cabang,Jumlah,Saldo\n"
        '02/01/2026,TRSF E-BANKING DB,0000,"50,000.00 DB","950,000.00"\n'
        '03/01/2026,GAJI,0000,"1,000,000.00 CR","1,950,000.00"\n'
    )
    assert [r[:3] for r in rows_of(raw.encode(), "IDR")] == [
        (dt.date(2026, 1, 2), "expense", Decimal("50000.00")),
        (dt.date(2026, 1, 3), "income", Decimal("1000000.00")),
    ]


def test_a_vietnamese_banks_english_names():
    assert auto_mapping(["Transaction Date", "Content", "Debit", "Credit", "Balance"]) == {
        "date": "Transaction Date",
        "description": "Content",
        "debit": "Debit",
        "credit": "Credit",
    }
    assert auto_mapping(["Date", "Transactions in detail", "Amount"])["description"] == "Transactions in detail"

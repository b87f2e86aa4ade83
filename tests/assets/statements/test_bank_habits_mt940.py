"""Table tests of the MT940 reader on the ways banks bend the format (found on the held-out corpus parts):
each case a few lines of a real-shaped file and the rows it must give, or the refusal it must get."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import translation

from assets.statements import mt940file
from assets.statements.mt940file import mend, mt940_rows
from assets.statements.rows import ImportRejected


def rows_of(reader):
    return [(r.occurred_on, r.direction, r.amount, r.currency) for r in reader]


def mt940(*lines: str, balance_day: str = "200131") -> bytes:
    head = [":20:STMT", ":25:NL00BANK0123456789", ":28C:1/1", f":60F:C{balance_day}EUR100,00"]
    return "\n".join([*head, *lines, f":62F:C{balance_day}EUR100,00", "-"]).encode()


@pytest.mark.parametrize(
    ("lines", "want"),
    [
        # A decimal point, as Rabobank's layout writes amounts.
        ([":61:200131C000000043985.66NMSCNONREF"], [(dt.date(2020, 1, 31), "income", Decimal("43985.66"), "EUR")]),
        # No transaction type before the reference: read as NMSC.
        ([":61:2001310131DN38926,67//19239817156"], [(dt.date(2020, 1, 31), "expense", Decimal("38926.67"), "EUR")]),
        # A zero line moves no money; the line beside it is kept.
        (
            [":61:2001310131D0,00NONREF", ":61:2001310131D7,64NONREF"],
            [(dt.date(2020, 1, 31), "expense", Decimal("7.64"), "EUR")],
        ),
        # 30 February, from a bank counting interest in 30-day months: the month's last day.
        ([":61:2002300301DR6,00N024NONREF"], [(dt.date(2020, 2, 29), "expense", Decimal("6.00"), "EUR")]),
        # A whole statement with nothing booked.
        ([], []),
    ],
    ids=["point-amount", "untyped-line", "zero-line", "february-30", "no-lines"],
)
def test_mt940_as_banks_write_it(lines, want):
    assert rows_of(mt940_rows(mt940(*lines), currency="USD")) == want


def test_mt940_balances_dated_past_the_months_end_and_an_odd_statement_number_still_read():
    raw = mt940(":61:021101C3000,NTRFNONREF", balance_day="021131").replace(b":28C:1/1", b":28C: /1")
    assert rows_of(mt940_rows(raw, currency="USD")) == [(dt.date(2002, 11, 1), "income", Decimal("3000.00"), "EUR")]
    assert ":62F:C021130EUR" in mend(raw.decode()) and ":28C:" not in mend(raw.decode())


def test_mt940_a_line_the_library_cannot_match_refuses_the_file_rather_than_half_reading_it():
    # Amounts without their decimal comma and no transaction type: the library matches the first line only.
    raw = mt940(":61:2011301130CN220000//19239782213", ":86:1130", ":61:2011301130DN43000//19239810200", ":86:1001")
    with pytest.raises(ImportRejected) as caught, translation.override("en"):
        list(mt940_rows(raw, currency="USD"))
    assert caught.value.code == "INVALID_MT940" and "1 :61: line" in caught.value.message


def test_mt940_read_in_runs_gives_the_rows_of_one_whole_read(monkeypatch):
    first = mt940(
        ":61:2001310131DN38926,67NTRF//REF1", ":86:Rent January",
        ":61:2001310131C12,50NTRFNONREF", ":86:Refund",
        ":61:2001310131D7,64NTRF//REF1", ":86:Rent again, same reference",
    )  # fmt: skip
    second = first.replace(b"NL00BANK0123456789", b"GB00BANK42").replace(b"EUR", b"GBP")
    raw = first + b"\n" + second

    def read():
        return [(r.key, r.occurred_on, r.amount, r.currency, r.description, r.external_id, r.problems)
                for r in mt940_rows(raw, currency="VND")]  # fmt: skip

    whole = read()
    monkeypatch.setattr(mt940file, "CHUNK_LINES", 1)
    # Each line in a run of its own still takes its statement's currency and the file's account scope.
    assert read() == whole
    assert [r[3] for r in whole] == ["EUR"] * 3 + ["GBP"] * 3
    assert len({r[5] for r in whole}) == 6


def test_mt940_without_lines_or_a_closing_balance_is_still_refused():
    with pytest.raises(ImportRejected) as caught:
        list(mt940_rows(b":20:STMT\n:25:123\n:60F:C200131EUR1,00\n-", currency="USD"))
    assert caught.value.code == "INVALID_MT940"

"""Money that counts: over random ledgers with transfers, splits, exclusions and two currencies, the counted
query and the conversion agree with a plain sum written by hand (docs/ledger.md)."""

import datetime as dt
import itertools
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets.ledger.conversion import RateRow, RateTable, convert, total_in
from assets.ledger.models import ExchangeRate, TransactionSplit, Transfer
from assets.ledger.selectors import counted_totals
from assets.models import Transaction
from tests import factories

START = dt.date(2026, 3, 1)
CATEGORIES = ("groceries", "dining", "transport")
_names = itertools.count()

row_strategy = st.fixed_dictionaries(
    {
        "currency": st.sampled_from(["VND", "USD"]),
        "units": st.integers(min_value=1, max_value=5_000_000),
        "direction": st.sampled_from(["expense", "income"]),
        "category": st.sampled_from(CATEGORIES),
        "day": st.integers(min_value=0, max_value=20),
        "excluded": st.booleans(),
        "split": st.lists(st.sampled_from(CATEGORIES), max_size=3),
        "transfer": st.sampled_from([None, "paired", "one_side", "suggested"]),
    }
)
rates_strategy = st.dictionaries(
    st.integers(min_value=0, max_value=20), st.integers(min_value=20_000, max_value=27_000), max_size=6
)


def _amount(row) -> Decimal:
    return Decimal(row["units"]) if row["currency"] == "VND" else Decimal(row["units"]).scaleb(-2)


def _parts(amount: Decimal, currency: str, categories: list[str]) -> list[tuple[Decimal, str]]:
    """Parts summing exactly to `amount`: equal shares, the remainder on the last."""
    unit = Decimal(1) if currency == "VND" else Decimal("0.01")
    share = (amount / len(categories)).quantize(unit, rounding="ROUND_DOWN")
    if share <= 0:
        return []
    parts = [(share, c) for c in categories[:-1]]
    return [*parts, (amount - share * (len(categories) - 1), categories[-1])]


def build_ledger(owner, rows, rates) -> list[dict]:
    """The ledger in the database, and what each row contributes as written down by hand."""
    ExchangeRate.objects.all().delete()  # the examples share one test transaction; the rates are global
    bank = factories.asset(owner, name="Bank", kind="bank_account")
    wallet = factories.asset(owner, name="MoMo", kind="e_wallet")
    for day, rate in rates.items():
        ExchangeRate.objects.create(
            day=START + dt.timedelta(days=day), from_currency="USD", to_currency="VND", rate=rate, source="vietcombank"
        )
    expected = []
    for row in rows:
        amount, day = _amount(row), START + dt.timedelta(days=row["day"])
        txn = factories.txn(
            owner,
            amount=amount,
            currency=row["currency"],
            direction=row["direction"],
            category=row["category"] if row["direction"] == "expense" else "salary",
            occurred_on=day,
            asset=bank,
        )
        Transaction.objects.filter(pk=txn.pk).update(excluded=row["excluded"])
        parts = _parts(amount, row["currency"], row["split"]) if len(row["split"]) >= 2 else []
        for position, (part, category) in enumerate(parts):
            TransactionSplit.objects.create(transaction=txn, amount=part, category=category, position=position)
        in_transfer = row["transfer"] in ("paired", "one_side")
        if row["transfer"]:
            other = factories.txn(
                owner,
                amount=amount,
                currency=row["currency"],
                direction="income" if row["direction"] == "expense" else "expense",
                category="other_income" if row["direction"] == "expense" else "other",
                occurred_on=day,
                asset=wallet,
            )
            sides = {"outgoing": txn, "incoming": other}
            if row["direction"] == "income":
                sides = {"outgoing": other, "incoming": txn}
            if row["transfer"] == "one_side":
                sides = {"outgoing" if row["direction"] == "expense" else "incoming": txn}
                other.delete()
            status = "suggested" if row["transfer"] == "suggested" else "paired"
            transfer = Transfer.objects.create(user=owner, status=status, **sides)
            if in_transfer:
                Transaction.objects.filter(pk__in=[t.pk for t in sides.values()]).update(transfer=transfer)
            else:
                # a suggestion is no transfer yet: its other side counts too
                expected.append(_hand(other.amount, other.currency, other.direction, other.category, day, rates))
        if in_transfer or row["excluded"]:
            continue
        for part, category in parts or [(amount, txn.category)]:
            expected.append(_hand(part, row["currency"], row["direction"], category, day, rates))
    return expected


def _hand(amount, currency, direction, category, day, rates) -> dict:
    """The row in VND by hand: the latest rate on or before its day, else missing."""
    vnd = amount
    if currency == "USD":
        known = [d for d in rates if START + dt.timedelta(days=d) <= day]
        vnd = (amount * rates[max(known)]).quantize(Decimal(1), rounding="ROUND_HALF_UP") if known else None
    return {"direction": direction, "category": category, "currency": currency, "day": day, "vnd": vnd, "raw": amount}


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(row_strategy, max_size=12), rates=rates_strategy)
def test_counted_totals_agree_with_a_hand_written_sum(rows, rates):
    owner = factories.user(f"ledger{next(_names)}")
    expected = build_ledger(owner, rows, rates)
    for direction in ("expense", "income"):
        got = counted_totals(
            user=owner, currency="VND", since=START, until=START + dt.timedelta(days=20), direction=direction
        )
        mine = [e for e in expected if e["direction"] == direction]
        # Rows of one currency and day are summed before converting, as the query groups them: the sums
        # agree to the unit on VND, and converted USD within half a unit per row.
        by_category: dict[str, Decimal] = {}
        for e in mine:
            if e["vnd"] is not None:
                by_category[e["category"]] = by_category.get(e["category"], Decimal(0)) + e["vnd"]
        assert set(got.by_category) == set(by_category)
        foreign_rows = {c: sum(1 for e in mine if e["category"] == c and e["currency"] == "USD") for c in by_category}
        for category, total in by_category.items():
            assert abs(got.by_category[category] - total) <= Decimal(foreign_rows[category]) / 2
        missing = sum(e["raw"] for e in mine if e["vnd"] is None)
        assert sum(m.amount for m in got.missing) == missing


def test_a_missing_rate_is_named_never_one_to_one():
    table = RateTable([RateRow(dt.date(2026, 3, 5), "USD", "VND", Decimal("25000"), "vietcombank")])
    before = convert(Decimal("10.00"), "USD", dt.date(2026, 3, 4), to="VND", table=table)
    assert before.missing and before.converted is None
    total = total_in(
        [(Decimal("10.00"), "USD", dt.date(2026, 3, 4)), (Decimal("2.00"), "USD", dt.date(2026, 3, 9))],
        to="VND",
        table=table,
    )
    assert total.total == Decimal("50000")
    assert [m.amount for m in total.missing] == [Decimal("10.00")]


def test_each_row_converts_at_the_rate_of_its_own_day():
    table = RateTable(
        [
            RateRow(dt.date(2025, 1, 2), "USD", "VND", Decimal("24000"), "vietcombank"),
            RateRow(dt.date(2026, 1, 2), "USD", "VND", Decimal("26000"), "vietcombank"),
        ]
    )
    last_year = convert(Decimal("1.00"), "USD", dt.date(2025, 6, 1), to="VND", table=table)
    assert (last_year.converted, last_year.rate, last_year.rate_day) == (
        Decimal("24000"),
        Decimal("24000"),
        dt.date(2025, 1, 2),
    )
    assert convert(Decimal("1.00"), "USD", dt.date(2026, 6, 1), to="VND", table=table).converted == Decimal("26000")


def test_a_users_own_rate_wins_for_its_day_and_pairs_read_backwards_and_through_vnd():
    day = dt.date(2026, 3, 5)
    table = RateTable(
        [
            RateRow(day, "USD", "VND", Decimal("25000"), "vietcombank"),
            RateRow(day, "USD", "VND", Decimal("25500"), "user", own=True),
            RateRow(day, "EUR", "VND", Decimal("27000"), "vietcombank"),
        ]
    )
    assert table.rate_on("USD", "VND", day).rate == Decimal("25500")
    assert convert(Decimal("25500"), "VND", day, to="USD", table=table).converted == Decimal("1.00")
    eur_in_usd = convert(Decimal("1.00"), "EUR", day, to="USD", table=table).converted
    assert eur_in_usd == Decimal("1.06")


@pytest.mark.django_db
def test_a_read_per_month_puts_each_row_in_its_own_month_at_the_months_edges(alice):
    from assets.ledger.totals import PER_MONTH, counted_groups_query

    days = [dt.date(2028, 1, 31), dt.date(2028, 2, 1), dt.date(2028, 2, 29), dt.date(2028, 3, 1), dt.date(2028, 12, 31)]
    for n, day in enumerate(days):
        factories.txn(alice, amount=str(10 ** (n + 3)), category="dining", occurred_on=day)
    factories.txn(alice, amount="7", currency="USD", category="dining", occurred_on=dt.date(2028, 2, 29))
    rows = counted_groups_query(
        user_ids=[alice.pk], currency="VND", since=days[0], until=days[-1], per=PER_MONTH, days_from=days[-1]
    )
    got = sorted((r["currency"], r["day"], r["total"]) for r in rows)
    assert got == [
        ("USD", dt.date(2028, 2, 29), Decimal("7")),  # another currency keeps its day, the day a rate needs
        ("VND", dt.date(2028, 1, 1), Decimal("1000")),
        ("VND", dt.date(2028, 2, 1), Decimal("110000")),
        ("VND", dt.date(2028, 3, 1), Decimal("1000000")),
        ("VND", dt.date(2028, 12, 31), Decimal("10000000")),  # from `days_from` on, per day
    ]

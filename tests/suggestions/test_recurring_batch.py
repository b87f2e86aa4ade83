"""The recurring detection's batch: its read of the ledger and its writes of the series. The read holds every
row of the lookback, and a batch costs the same queries whatever its size."""

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assets.models import Transaction
from suggestions.batches import user_batches
from suggestions.models import RecurringSeries
from suggestions.recurring.detection import Charge, add_months, detect
from suggestions.recurring.job import recurring_detect, recurring_detect_batch
from suggestions.recurring.reads import recurring_rows
from suggestions.thresholds import RECURRING_LOOKBACK_DAYS
from tests import factories
from tests.suggestions.factories import NOW, TODAY

pytestmark = pytest.mark.django_db


def charge(user, on, amount, description, category="subscriptions", direction="expense"):
    factories.txn(user, amount=amount, description=description, category=category, direction=direction, occurred_on=on)


def test_the_batch_read_holds_every_row_of_the_lookback_and_its_series(alice):
    # Yearly, three charges just over two years.
    for k, on in enumerate([dt.date(2024, 11, 30), dt.date(2025, 12, 2), dt.date(2026, 12, 1)]):
        charge(alice, on, 1_200_000 + k * 10_000, "Google One", "subscriptions")
    # A price rise on the latest charge, and one earlier that held.
    for k, amount in enumerate([220_000, 220_000, 220_000, 260_000, 260_000, 260_000, 300_000]):
        charge(alice, add_months(dt.date(2026, 5, 12), k), amount, "Netflix")
    # A few days' slack around the weekend, with a reference number in every description.
    for k, day in enumerate([1, 4, 2, 1, 5]):
        charge(alice, dt.date(2026, 7 + k, day), 6_500_000, f"Landlord REF {8812 + k}", "housing")
    # The meter: amounts far apart (35 % for utilities), and accents the bank drops now and then.
    meter = [(560_000, "Tiền điện EVN"), (740_000, "TIEN DIEN EVN"), (610_000, "tiền điện evn")]
    for k, (amount, text) in enumerate(meter):
        charge(alice, add_months(dt.date(2026, 9, 10), k), amount, text, "utilities")
    # Salary with overtime (10 %), and a refund word on one line.
    for k, amount in enumerate([25_000_000, 26_500_000, 24_000_000]):
        charge(alice, add_months(dt.date(2026, 9, 5), k), amount, "ACME Corp", "salary", "income")
    charge(alice, dt.date(2026, 11, 7), 59_000, "Refund: Spotify")
    for k in range(4):
        charge(alice, add_months(dt.date(2026, 8, 20), k), 59_000, "SPOTIFY P0A1B2C3")
    # A weekly habit at one price, and bare transfers to two people (one series each).
    for k in range(6):
        charge(alice, TODAY - dt.timedelta(days=7 * k), 45_000, "Grab", "transport")
    for phone in ("0901234567", "0987654321"):
        for k in range(3):
            charge(alice, add_months(dt.date(2026, 9, 15), k), 2_000_000, f"CK {phone}", "family")
    # Everyday spending, no series.
    rng = random.Random(7)
    for k in range(40):
        charge(alice, TODAY - dt.timedelta(days=k * 3), rng.randint(35, 400) * 1_000, "Co.op Mart", "groceries")

    charge(alice, TODAY - dt.timedelta(days=RECURRING_LOOKBACK_DAYS + 1), 59_000, "Spotify")  # before the lookback
    charge(alice, TODAY + dt.timedelta(days=1), 59_000, "Spotify")  # after today
    read = [Charge._make(row) for row in recurring_rows(today_of={alice.id: TODAY})]
    since = TODAY - dt.timedelta(days=RECURRING_LOOKBACK_DAYS)
    rows = Transaction.objects.filter(user=alice, occurred_on__gte=since, occurred_on__lte=TODAY)
    assert sorted(c.id for c in read) == sorted(rows.values_list("id", flat=True))
    assert all(c.amount == rows.get(id=c.id).amount and c.description == rows.get(id=c.id).description for c in read)
    found = detect(read)
    # The job hands the detection the rows as read (plain tuples): the same series as from Charges.
    assert detect(recurring_rows(today_of={alice.id: TODAY})) == found
    assert {s.key for s in found} >= {"google one", "netflix", "landlord ref", "acme corp", "spotify", "grab"}
    assert {s.key for s in found} >= {"ck 0901234567", "ck 0987654321"}
    assert "co op mart" not in {s.key for s in found}
    assert {s.interval for s in found} == {"weekly", "monthly", "yearly"}
    assert any(s.rose for s in found)


def test_each_users_rows_end_on_their_own_today(alice, bob):
    """A batch's users live on different clocks: each one's rows end on their own today, not the latest."""
    yesterday = TODAY - dt.timedelta(days=1)
    for user in (alice, bob):
        charge(user, yesterday, 59_000, "Spotify")
        charge(user, TODAY, 59_000, "Spotify")
    read = recurring_rows(today_of={alice.id: TODAY, bob.id: yesterday})
    got = sorted((c.user_id, c.occurred_on) for c in map(Charge._make, read))
    assert got == sorted([(alice.id, yesterday), (alice.id, TODAY), (bob.id, yesterday)])


def test_a_batch_costs_the_same_queries_whatever_its_size(db):
    """First run: the ledger, the stored series, one INSERT of the new series in a transaction (plans only
    when a bill is near: none here). Again: the two reads, nothing written."""

    def batch(n, prefix):
        users = [factories.user(f"{prefix}{k}") for k in range(n)]
        for user in users:
            for k in range(3):
                charge(user, add_months(dt.date(2026, 9, 20), k), 59_000, "Spotify")
                charge(user, add_months(dt.date(2026, 9, 21), k), 6_500_000, "Landlord", "housing")
        (users,) = list(user_batches(user_ids=[u.id for u in users]))
        with CaptureQueriesContext(connection) as first:
            created = recurring_detect_batch(users=users, now=NOW).created
        with CaptureQueriesContext(connection) as again:
            recurring_detect_batch(users=users, now=NOW)
        assert created == 2 * n
        return len(first), len(again)

    small, large = batch(2, "s"), batch(15, "l")
    assert small == large
    assert small[0] <= 5 and small[1] == 2  # the insert within a savepoint


def test_changed_and_ended_series_are_written_in_one_update(alice, bob):
    for user in (alice, bob):
        for k in range(3):
            charge(user, add_months(dt.date(2026, 9, 20), k), 59_000, "Spotify")
    recurring_detect(now=NOW)
    assert set(RecurringSeries.objects.values_list("status", flat=True)) == {"active"}
    charge(alice, dt.date(2026, 12, 20), 59_000, "Spotify")  # alice's goes on; bob's stops
    later = NOW + dt.timedelta(days=30)
    with CaptureQueriesContext(connection) as ctx:
        result = recurring_detect(now=later)
    writes = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith(("UPDATE", "INSERT"))]
    assert len(writes) == 1 and writes[0].startswith("UPDATE")
    assert result.ended == 1
    alice_s, bob_s = (RecurringSeries.objects.get(user=u) for u in (alice, bob))
    assert (alice_s.status, alice_s.last_on, alice_s.occurrences) == ("active", dt.date(2026, 12, 20), 4)
    assert bob_s.status == "ended" and alice_s.updated_at > alice_s.created_at
    assert alice_s.amount == Decimal("59000.00")

"""The named statements of suggestions/sql.py: what they write and what they return."""

import datetime as dt
import uuid
from decimal import Decimal

from suggestions.models import RecurringSeries, WeeklyDigest
from suggestions.recurring.reads import SeriesValues
from suggestions.sql import digests_claim, series_insert

STAMP = dt.datetime(2026, 11, 29, 2, 0, tzinfo=dt.UTC)


def values(**changes) -> SeriesValues:
    base = SeriesValues(
        merchant="Netflix", kind="subscription", amount=Decimal("260000.5"), previous_amount=None, interval="monthly",
        last_on=dt.date(2026, 11, 12), next_on=dt.date(2026, 12, 12), category="subscriptions", occurrences=6,
        status="active",
    )  # fmt: skip
    return base._replace(**changes)


def test_new_series_are_stored_as_given_and_each_returns_its_id(alice, bob):
    new = {
        (alice.id, "expense", "VND", "netflix"): values(),
        (bob.id, "expense", "USD", "netflix"): values(amount=Decimal("12.99"), previous_amount=Decimal("10.99")),
        (bob.id, "income", "USD", "acme corp"): values(merchant="ACME Corp", kind="income", category="salary"),
    }
    ids = series_insert(new, stamp=STAMP)
    assert set(ids) == set(new)
    for key, series_id in ids.items():
        row = RecurringSeries.objects.get(id=series_id)
        assert (row.user_id, row.direction, row.currency, row.key) == key
        assert SeriesValues(*(getattr(row, f) for f in SeriesValues._fields)) == new[key]
        assert row.created_at == row.updated_at == STAMP
    assert series_insert({}, stamp=STAMP) == {}


def test_a_claim_returns_only_the_reviews_it_inserted(alice, bob):
    review = {"week": "2026-W48", "spent": "1500000", "biggest": [{"description": 'Phở "24"'}], "plan": None}
    first = digests_claim({alice.id: review}, iso_week="2026-W48", week_start=dt.date(2026, 11, 23),
                          run_id=uuid.uuid4(), stamp=STAMP)  # fmt: skip
    run = uuid.uuid4()
    again = digests_claim({alice.id: {"other": 1}, bob.id: review}, iso_week="2026-W48",
                          week_start=dt.date(2026, 11, 23), run_id=run, stamp=STAMP)  # fmt: skip
    assert (first, again) == ({alice.id}, {bob.id})
    stored = WeeklyDigest.objects.get(user=alice, iso_week="2026-W48")
    assert (stored.payload, stored.week_start, stored.created_at) == (review, dt.date(2026, 11, 23), STAMP)
    assert WeeklyDigest.objects.get(user=bob).run_id == run

"""The demo ledger over many "todays": the detection finds its recurring money and nothing from everyday
spending, whatever the day of the month (pure: no database)."""

import datetime as dt

import pytest

from demo.ledger import ledger
from suggestions.recurring.detection import Charge, detect

EXPECTED = {"Netflix", "Spotify", "Tiền nhà", "Tiền điện EVN", "Tiền nước Sawaco", "Viettel cước di động"}


@pytest.mark.parametrize("offset", range(0, 62, 3))
def test_the_demo_ledger_yields_only_its_series(offset):
    today = dt.date(2026, 10, 1) + dt.timedelta(days=offset)
    entries = ledger(today)
    charges = [
        Charge(i, 1, e.direction, "VND", e.amount, e.description, e.category, e.occurred_on)
        for i, e in enumerate(entries)
    ]
    found = {s.merchant for s in detect(charges) if s.kind != "income"}
    assert found <= EXPECTED
    # 90 days hold two or three of each day of the month: most series show on any day.
    assert len(found) >= 3

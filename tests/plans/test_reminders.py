"""Table tests of when a plan's reminder is due, in the user's clock (plans/reminders.py)."""

import datetime as dt
import zoneinfo

import pytest

from plans.reminders import reminder_due, reminder_window_date

D = dt.date
NOV = D(2026, 11, 1)


@pytest.mark.parametrize(
    ("local_now", "reminder_time", "sent", "expected"),
    [
        (dt.datetime(2026, 11, 10, 20, 0), dt.time(20, 0), [], D(2026, 11, 10)),
        (dt.datetime(2026, 11, 10, 22, 59), dt.time(20, 0), [], D(2026, 11, 10)),
        (dt.datetime(2026, 11, 10, 23, 0), dt.time(20, 0), [], None),
        (dt.datetime(2026, 11, 10, 19, 59), dt.time(20, 0), [], None),
        (dt.datetime(2026, 11, 10, 21, 0), dt.time(20, 0), [D(2026, 11, 10)], None),
        # A late window runs past midnight and belongs to the day it started.
        (dt.datetime(2026, 11, 11, 0, 30), dt.time(22, 30), [], D(2026, 11, 10)),
        (dt.datetime(2026, 11, 11, 1, 30), dt.time(22, 30), [], None),
        # 00:30 on 1 December is still 30 November's window: the November plan reminds for its last day.
        (dt.datetime(2026, 12, 1, 0, 30), dt.time(22, 30), [], D(2026, 11, 30)),
        # The first of the next month's windows is not this plan's.
        (dt.datetime(2026, 12, 1, 20, 0), dt.time(20, 0), [], None),
    ],
)
def test_reminder_due(local_now, reminder_time, sent, expected):
    due = reminder_due(
        enabled=True, active=True, first=NOV, local_now=local_now, reminder_time=reminder_time, sent_dates=sent
    )
    assert due == expected


def test_reminders_need_an_enabled_active_plan():
    now = dt.datetime(2026, 11, 10, 20, 0)
    assert reminder_due(enabled=False, active=True, first=NOV, local_now=now, reminder_time=dt.time(20)) is None
    assert reminder_due(enabled=True, active=False, first=NOV, local_now=now, reminder_time=dt.time(20)) is None


def test_reminder_windows_east_and_west_of_utc():
    now = dt.datetime(2026, 11, 10, 13, 30, tzinfo=dt.UTC)
    saigon = now.astimezone(zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh"))  # 20:30
    chicago = now.astimezone(zoneinfo.ZoneInfo("America/Chicago"))  # 07:30
    assert reminder_window_date(local_now=saigon, reminder_time=dt.time(20)) == D(2026, 11, 10)
    assert reminder_window_date(local_now=chicago, reminder_time=dt.time(20)) is None
    assert reminder_window_date(local_now=chicago, reminder_time=dt.time(7)) == D(2026, 11, 10)

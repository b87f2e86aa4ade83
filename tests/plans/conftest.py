import datetime as dt

import pytest
from django.utils import timezone


class Clock:
    """Sets the instant `django.utils.timezone.now()` answers, so "today" in the user's timezone is fixed."""

    def __init__(self, monkeypatch):
        self._monkeypatch = monkeypatch
        self.now = None

    def set(self, iso: str) -> dt.datetime:
        self.now = dt.datetime.fromisoformat(iso)
        self._monkeypatch.setattr(timezone, "now", lambda: self.now)
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    c = Clock(monkeypatch)
    # 10 November 2026, noon in Saigon (UTC+7).
    c.set("2026-11-10T05:00:00+00:00")
    return c

"""Derived goal figures, pure: no ORM, no clock (today comes in)."""

import calendar
import datetime as dt
import re
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal

from django.utils.translation import gettext as _

from zeus.errors import ValidationFailed
from zeus.money import minor_unit, quantize


@dataclass(frozen=True)
class GoalProgress:
    progress_pct: Decimal  # 0.0 to 100.0, one decimal place
    monthly_needed: Decimal  # in the goal's currency; 0 when achieved
    on_track: bool


def months_between(start: dt.date, end: dt.date) -> int:
    """Whole months from start to end, counting a started month: 2026-11-29 → 2026-12-01 is 1."""
    months = (end.year - start.year) * 12 + (end.month - start.month)
    if end.day > start.day:
        months += 1
    return max(months, 0)


def goal_progress(
    *, target: Decimal, current: Decimal, currency: str, started_on: dt.date, deadline: dt.date, today: dt.date
) -> GoalProgress:
    remaining = max(target - current, Decimal(0))
    pct = min(Decimal(100), (current / target * 100)).quantize(Decimal("0.1")) if target > 0 else Decimal(100)
    if remaining == 0:
        return GoalProgress(progress_pct=pct, monthly_needed=quantize(Decimal(0), currency), on_track=True)
    months_left = months_between(today, deadline)
    if months_left == 0:
        return GoalProgress(progress_pct=pct, monthly_needed=quantize(remaining, currency), on_track=False)
    unit = minor_unit(currency)
    monthly = (remaining / months_left / unit).to_integral_value(rounding=ROUND_CEILING) * unit
    total_days = (deadline - started_on).days
    elapsed = (today - started_on).days
    expected = target * Decimal(elapsed) / Decimal(total_days) if total_days > 0 else target
    return GoalProgress(progress_pct=pct, monthly_needed=quantize(monthly, currency), on_track=current >= expected)


_RELATIVE = re.compile(
    r"^\s*(?:in\s+)?(\d{1,3})\s*(years?|yrs?|y|năm|nam|months?|mos?|m|tháng|thang|weeks?|w|tuần|tuan|days?|d|ngày|ngay)\s*$",
    re.IGNORECASE,
)


def resolve_deadline(value, *, today: dt.date) -> dt.date:
    """A date (`2030-06-30`) or a span from today (`10 years`, `18 months`, `6 tháng`)."""
    if isinstance(value, dt.date):
        return value
    text = str(value or "").strip()
    match = _RELATIVE.match(text)
    if match:
        count, unit = int(match[1]), match[2].lower()
        if unit[0] == "y" or unit in ("năm", "nam"):
            return _add_months(today, 12 * count)
        if unit[0] == "m" or unit in ("tháng", "thang"):
            return _add_months(today, count)
        if unit[0] == "w" or unit in ("tuần", "tuan"):
            return today + dt.timedelta(weeks=count)
        return today + dt.timedelta(days=count)
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValidationFailed(
            _("deadline must be a date (YYYY-MM-DD) or a span such as '10 years' or '18 months'."),
            code="INVALID_DATE",
            fields={"deadline": [_("Use YYYY-MM-DD or a span such as '10 years'.")]},
        ) from None


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))

"""Reads of a user's recurring series (docs/recurring.md): the list, one series, its public shape."""

import datetime as dt

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from suggestions.models import RecurringSeries
from suggestions.recurring.detection import monthly_cost, yearly_cost
from zeus.errors import NotFound, ValidationFailed
from zeus.money import quantize
from zeus.timeutil import user_today


def recurring_list(
    *, user, status: str | None = "active", due_within_days=None, kind: str | None = None, today: dt.date | None = None
) -> QuerySet[RecurringSeries]:
    """The user's series, soonest next charge first. `status`: active (default), ended, dismissed or all;
    `due_within_days`: only series whose next charge is due from today through that many days ahead."""
    qs = RecurringSeries.objects.filter(user=user)
    if status and status != "all":
        if status not in RecurringSeries.Status.values:
            raise ValidationFailed(
                _("status must be active, ended, dismissed or all."), fields={"status": [_("Not valid.")]}
            )
        qs = qs.filter(status=status)
    if kind and kind != "all":
        if kind not in RecurringSeries.Kind.values:
            raise ValidationFailed(
                _("kind must be subscription, bill, income, transfer or all."), fields={"kind": [_("Not valid.")]}
            )
        qs = qs.filter(kind=kind)
    if due_within_days not in (None, ""):
        try:
            days = int(due_within_days)
        except (TypeError, ValueError):
            days = -1
        if not 0 <= days <= 366:
            raise ValidationFailed(
                _("due_within_days is a whole number from 0 to 366."),
                fields={"due_within_days": [_("From 0 to 366.")]},
            )
        today = today or user_today(user)
        qs = qs.filter(next_on__gte=today, next_on__lte=today + dt.timedelta(days=days))
    return qs.order_by("next_on", "id")


def recurring_get(*, user, series_id) -> RecurringSeries:
    try:
        return RecurringSeries.objects.get(user=user, id=int(series_id))
    except (RecurringSeries.DoesNotExist, TypeError, ValueError):
        raise NotFound(_("No such recurring series.")) from None


def recurring_to_dict(series: RecurringSeries) -> dict:
    """The public shape of a series (docs/recurring.md), for the chat's tool and the pages."""
    c = series.currency
    return {
        "id": series.id,
        "merchant": series.merchant,
        "kind": series.kind,
        "amount": str(quantize(series.amount, c)),
        "currency": c,
        "interval": series.interval,
        "last_on": series.last_on.isoformat(),
        "next_on": series.next_on.isoformat(),
        "category": series.category,
        "status": series.status,
        "monthly_cost": str(quantize(monthly_cost(series.amount, series.interval), c)),
        "yearly_cost": str(quantize(yearly_cost(series.amount, series.interval), c)),
    }

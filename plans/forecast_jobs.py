"""The daily shortfall watch: once a day in each user's timezone (from CHECK_FROM local time), the forecast's
lowest point of the next 14 days against the user's cushion. One notice opens an episode; no other notice
until the forecast clears the cushion again, which closes it."""

import datetime as dt
from decimal import Decimal

from django.db import transaction as db_transaction
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _

from plans import forecast as fc
from plans.forecast_models import ForecastWatch
from plans.forecast_read import cash_forecast
from zeus.account_data.unlocked import unlocked_users
from zeus.models import Notification
from zeus.money import format_amount, from_minor
from zeus.services import notification_create
from zeus.timeutil import user_now
from zeus.wording import NotificationWords

CHECK_FROM = dt.time(7, 0)
RANGE = 1000


def shortfall_watch_run(*, now: dt.datetime, user_id_range: tuple[int, int]) -> int:
    """Returns how many notices it sent."""
    first, last = user_id_range
    users = unlocked_users().filter(id__gte=first, id__lte=last, is_active=True).select_related("profile")
    sent = 0
    for user in users:
        local = user_now(user, now=now)
        if local.time() < CHECK_FROM:
            continue
        sent += _check(user, local.date())
    return sent


def _check(user, today: dt.date) -> int:
    with db_transaction.atomic():
        watch, _created = ForecastWatch.objects.select_for_update().get_or_create(user=user)
        if watch.checked_on == today:
            return 0
        watch.checked_on = today
        view = cash_forecast(user=user, today=today, days=fc.SHORTFALL_WINDOW)
        short = view.forecast is not None and fc.lowest_within(view.forecast, fc.SHORTFALL_WINDOW).balance < (
            view.forecast.cushion
        )
        opened = short and not watch.in_shortfall
        watch.in_shortfall = short
        watch.save(update_fields=["checked_on", "in_shortfall", "updated_at"])
        if opened:
            lowest = fc.lowest_within(view.forecast, fc.SHORTFALL_WINDOW)
            facts = {
                "date": lowest.date.isoformat(),
                "balance": str(from_minor(lowest.balance, view.currency)),
                "currency": view.currency,
            }
            with override(user.profile.language or "vi"):
                words = shortfall_words(facts)
            notification_create(
                user=user,
                kind=Notification.Kind.CASH_SHORTFALL,
                title=words.title,
                body=words.body,
                cta_url="/#forecast",
                dedupe_key=f"shortfall:{today.isoformat()}",
                facts=facts,
            )
    return 1 if opened else 0


def shortfall_words(facts: dict) -> NotificationWords:
    """The shortfall notice from its facts, in the active language (stored in the owner's, read in the reader's)."""
    currency = facts["currency"]
    title = _("Money may run short on %(date)s: %(balance)s") % {
        "date": dt.date.fromisoformat(facts["date"]).strftime("%d/%m"),
        "balance": format_amount(Decimal(facts["balance"]), currency, locale=get_language()),
    }
    body = _("Your bills and usual spending may take your accounts below your cushion. See the forecast.")
    return NotificationWords(title=title, body=body, cta_url="")

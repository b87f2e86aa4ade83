"""The daily shortfall watch: once a day in each user's timezone (from CHECK_FROM local time), the forecast's
lowest point of the next 14 days against the user's cushion. One notice opens an episode; no other notice
until the forecast clears the cushion again, which closes it.

The users are read in batches of BATCH, each batch's lowest points in a constant number of queries
(plans.forecast_read.shortfall_readings: the page's read, projected day by day only for the users whose floor
does not clear their cushion), its watches claimed and written in one statement each and its notices in one."""

import datetime as dt
from collections import defaultdict
from decimal import Decimal

from django.db import transaction as db_transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _

from plans import forecast as fc
from plans.forecast_models import ForecastWatch
from plans.forecast_read import shortfall_readings
from zeus.account_data.unlocked import unlocked_users
from zeus.models import Notification
from zeus.money import format_amount, from_minor
from zeus.queries import AnyOf
from zeus.selectors import profile_get, profiles_remember
from zeus.services import NotificationDraft, notification_create_many
from zeus.timeutil import user_now
from zeus.wording import NotificationWords

CHECK_FROM = dt.time(7, 0)
RANGE = 1000
BATCH = 1000  # a Celery task's range (RANGE): one batch of reads per task


def shortfall_watch_run(*, now: dt.datetime, user_id_range: tuple[int, int], batch_size: int = BATCH) -> int:
    """Returns how many notices it sent."""
    first, last = user_id_range
    users = unlocked_users().filter(id__gte=first, id__lte=last, is_active=True).order_by("id")
    sent, after = 0, first - 1
    while True:
        batch = list(users.filter(id__gt=after)[:batch_size])
        if not batch:
            return sent
        after = batch[-1].pk
        sent += _check_batch(batch, now)


def _check_batch(users: list, now: dt.datetime) -> int:
    profiles_remember(users=users)
    today_of = {}
    for user in users:
        local = user_now(user, now=now)
        if local.time() >= CHECK_FROM:
            today_of[user.pk] = local.date()
    if not today_of:
        return 0
    with db_transaction.atomic():
        # A second worker on the same users waits on these rows, then finds them checked today.
        ForecastWatch.objects.bulk_create(
            [ForecastWatch(user_id=user_id) for user_id in today_of], ignore_conflicts=True
        )
        locked = ForecastWatch.objects.select_for_update().filter(AnyOf("user_id", today_of)).order_by("user_id")
        watches = {row[0]: row for row in locked.values_list("user_id", "pk", "checked_on", "in_shortfall")}
        due = [user for user in users if user.pk in today_of and watches[user.pk][2] != today_of[user.pk]]
        if not due:
            return 0
        readings = shortfall_readings(
            users=due, today_of={user.pk: today_of[user.pk] for user in due}, days=fc.SHORTFALL_WINDOW
        )
        drafts, checked, short_ids = [], defaultdict(list), []
        for user in due:
            (_user_id, watch_id, _checked_on, was_short), reading = watches[user.pk], readings[user.pk]
            today = today_of[user.pk]
            if reading.short and not was_short:
                drafts.append(_notice(user, today, reading.lowest, reading.currency))
            checked[today].append(watch_id)
            if reading.short:
                short_ids.append(watch_id)
        # One UPDATE for the batch: a case per local day (two or three), where bulk_update's grows per row.
        ForecastWatch.objects.filter(AnyOf("pk", [watches[user.pk][1] for user in due])).update(
            checked_on=Case(*(When(AnyOf("pk", ids), then=Value(day)) for day, ids in checked.items())),
            # An empty ANY is false, where Django would drop an empty IN and make every row true.
            in_shortfall=AnyOf("pk", short_ids),
            updated_at=timezone.now(),
        )
        notification_create_many(drafts)
    return len(drafts)


def _notice(user, today: dt.date, lowest: fc.Day, currency: str) -> NotificationDraft:
    facts = {
        "date": lowest.date.isoformat(),
        "balance": str(from_minor(lowest.balance, currency)),
        "currency": currency,
    }
    with override(profile_get(user=user).language or "vi"):
        words = shortfall_words(facts)
    return NotificationDraft(
        user_id=user.pk,
        kind=Notification.Kind.CASH_SHORTFALL,
        title=words.title,
        body=words.body,
        cta_url="/#forecast",
        dedupe_key=f"shortfall:{today.isoformat()}",
        facts=facts,
    )


def shortfall_words(facts: dict) -> NotificationWords:
    """The shortfall notice from its facts, in the active language (stored in the owner's, read in the reader's)."""
    currency = facts["currency"]
    title = _("Money may run short on %(date)s: %(balance)s") % {
        "date": dt.date.fromisoformat(facts["date"]).strftime("%d/%m"),
        "balance": format_amount(Decimal(facts["balance"]), currency, locale=get_language()),
    }
    body = _("Your bills and usual spending may take your accounts below your cushion. See the forecast.")
    return NotificationWords(title=title, body=body, cta_url="")

"""The daily shortfall watch: once a day in each user's timezone (from CHECK_FROM local time), the forecast's
lowest point of the next 14 days against the user's cushion. One notice opens an episode; no other notice
until the forecast clears the cushion again, which closes it.

The users are read in batches of BATCH, each batch's lowest points in a constant number of queries
(plans.forecast_read.shortfall_readings: the page's read, projected day by day only for the users whose floor
does not clear their cushion), its watches claimed and written in one statement each and its notices in one."""

import datetime as dt
import zoneinfo
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction as db_transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _

from plans import forecast as fc
from plans.forecast_models import ForecastWatch
from plans.forecast_read import ShortfallReading, shortfall_readings
from plans.forecast_screen import may_fall_short
from plans.sql import forecast_watches_ensure
from zeus.account_data.unlocked import unlocked_users
from zeus.mail import language_code
from zeus.models import Notification
from zeus.money import format_amount, from_minor
from zeus.queries import AnyOf
from zeus.selectors import profile_get
from zeus.services import NotificationDraft, notifications_add_many
from zeus.wording import NotificationWords

CHECK_FROM = dt.time(7, 0)
RANGE = 1000
BATCH = 1000  # a Celery task's range (RANGE): one batch of reads per task


@dataclass(frozen=True)
class Watched:
    """A user the watch may check, with what their profile says of their clock, money and language."""

    user_id: int
    timezone: str
    currency: str
    language: str


def shortfall_watch_run(*, now: dt.datetime, user_id_range: tuple[int, int], batch_size: int = BATCH) -> int:
    """Returns how many notices it sent."""
    first, last = user_id_range
    users = unlocked_users().filter(id__gte=first, id__lte=last, is_active=True).order_by("id")
    users = users.values_list("id", "profile__timezone", "profile__currency", "profile__language")
    sent, after = 0, first - 1
    while True:
        batch = list(users.filter(id__gt=after)[:batch_size])
        if not batch:
            return sent
        after = batch[-1][0]
        sent += _check_batch([_watched(*row) for row in batch], now)


def _watched(user_id: int, timezone: str | None, currency: str | None, language: str | None) -> Watched:
    if timezone is None:  # no profile yet: made with its defaults, as profile_get makes it for a page
        profile = profile_get(user=get_user_model()(pk=user_id))
        timezone, currency, language = profile.timezone, profile.currency, profile.language
    return Watched(user_id=user_id, timezone=timezone, currency=currency, language=language)


def _check_batch(users: list[Watched], now: dt.datetime) -> int:
    clocks, today_of = {}, {}
    for user in users:
        if user.timezone not in clocks:
            clocks[user.timezone] = now.astimezone(zoneinfo.ZoneInfo(user.timezone))
        local = clocks[user.timezone]
        if local.time() >= CHECK_FROM:
            today_of[user.user_id] = local.date()
    if not today_of:
        return 0
    with db_transaction.atomic():
        # A second worker on the same users waits on these rows, then finds them checked today.
        forecast_watches_ensure(list(today_of))
        locked = ForecastWatch.objects.select_for_update().filter(AnyOf("user_id", today_of)).order_by("user_id")
        # The cushions ride on the locked rows: the screen and the full read measure against them, read once here.
        watches = {row[0]: row for row in locked.values_list("user_id", "pk", "checked_on", "in_shortfall", "cushion")}
        due = [
            user for user in users if user.user_id in today_of and watches[user.user_id][2] != today_of[user.user_id]
        ]
        if not due:
            return 0
        currency_of = {user.user_id: user.currency for user in due}
        due_today = {user.user_id: today_of[user.user_id] for user in due}
        # Only the users the screen cannot clear have their forecasts read; the others are not short.
        cushions = {user.user_id: watches[user.user_id][4] for user in due}
        maybe = may_fall_short(currency_of=currency_of, today_of=due_today, days=fc.SHORTFALL_WINDOW, cushions=cushions)
        readings = shortfall_readings(
            currency_of={user_id: currency_of[user_id] for user_id in maybe},
            today_of={user_id: due_today[user_id] for user_id in maybe},
            days=fc.SHORTFALL_WINDOW,
            cushions=cushions,
        )
        opened, checked, short_ids = [], defaultdict(list), []
        for user in due:
            _user_id, watch_id, _checked_on, was_short, _cushion = watches[user.user_id]
            reading = readings.get(user.user_id)
            today = today_of[user.user_id]
            short = reading is not None and reading.short
            if short and not was_short:
                opened.append((user, today, reading))
            checked[today].append(watch_id)
            if short:
                short_ids.append(watch_id)
        # One UPDATE for the batch: a case per local day (two or three), where bulk_update's grows per row.
        ForecastWatch.objects.filter(AnyOf("pk", [watches[user.user_id][1] for user in due])).update(
            checked_on=Case(*(When(AnyOf("pk", ids), then=Value(day)) for day, ids in checked.items())),
            # An empty ANY is false, where Django would drop an empty IN and make every row true.
            in_shortfall=AnyOf("pk", short_ids),
            updated_at=timezone.now(),
        )
        # The push to readers online speaks the languages read with the batch: no query of its own, so a batch
        # costs the same queries whether or not any of its readers has Zeus open; no Notification made per row.
        languages = {user.user_id: language_code(user.language) for user, _today, _reading in opened}
        notifications_add_many(_notices(opened), languages=languages)
    return len(opened)


def _notices(opened: list[tuple[Watched, dt.date, ShortfallReading]]) -> list[NotificationDraft]:
    """A notice for each episode opened, in its user's language: one translation switch per language of the
    batch, not one per notice; in the order given."""
    by_language: dict[str, list] = defaultdict(list)
    for user, today, reading in opened:
        by_language[user.language or "vi"].append((user, today, reading))
    drafts = {}
    for language, group in by_language.items():
        with override(language):
            for user, today, reading in group:
                drafts[user.user_id] = _notice(user, today, reading.lowest, reading.currency)
    return [drafts[user.user_id] for user, _today, _reading in opened]


def _notice(user: Watched, today: dt.date, lowest: fc.Day, currency: str) -> NotificationDraft:
    """The notice in the active language."""
    facts = {
        "date": lowest.date.isoformat(),
        "balance": str(from_minor(lowest.balance, currency)),
        "currency": currency,
    }
    words = shortfall_words(facts)
    return NotificationDraft(
        user_id=user.user_id,
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

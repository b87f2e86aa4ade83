"""The per-user daily token budget (ZEUS_DAILY_TOKEN_BUDGET, or a staff override per user).

Usage is a counter row per user and local day, bumped with F() when a turn's run is written, so turns in
every process add up instead of overwriting. A turn reads the counter and the budget once, in the trip that
stores its user message; before each model call it compares that figure plus its own spend so far with the
budget, without another query. Turns running at the same moment in other threads of the same user are seen
by the next turn, so a day can end over budget by at most what those concurrent turns spent. Tokens counted:
input + output (cache reads and writes are priced apart and are not part of the budget).
"""

import datetime as dt
import zoneinfo

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from chat.loop.provider import ProviderFailure
from chat.models import DailyUsage, ProviderKey, TokenBudget


class UsageLimitReached(ProviderFailure):
    def __init__(self, message: str):
        super().__init__("USAGE_LIMIT", message, retryable=False)


def daily_usage_charge(*, user_id: int, day: dt.date, tokens: int) -> None:
    if tokens <= 0:
        return
    if DailyUsage.objects.filter(user_id=user_id, day=day).update(tokens=F("tokens") + tokens):
        return
    try:
        with transaction.atomic():
            DailyUsage.objects.create(user_id=user_id, day=day, tokens=tokens)
    except IntegrityError:
        # Another process created the day's row first.
        DailyUsage.objects.filter(user_id=user_id, day=day).update(tokens=F("tokens") + tokens)


def daily_usage_reset(*, usage_ids) -> int:
    """Staff action: the selected days start again from zero."""
    return DailyUsage.objects.filter(id__in=list(usage_ids)).update(tokens=0, reset_at=timezone.now())


def token_budget_set(*, user, daily_tokens: int | None, note: str = "") -> TokenBudget | None:
    """A per-user override; None removes it (the setting applies again)."""
    if daily_tokens is None:
        TokenBudget.objects.filter(user=user).delete()
        return None
    budget, _ = TokenBudget.objects.update_or_create(user=user, defaults={"daily_tokens": daily_tokens, "note": note})
    return budget


def effective_budget(override: int | None) -> int:
    return settings.ZEUS_DAILY_TOKEN_BUDGET if override is None else override


def usage_status(*, user_id: int, day: dt.date) -> tuple[int, int]:
    """(tokens used on `day`, the user's budget; 0 = unlimited), in one query."""
    used, budget, _ = turn_account(user_id=user_id, day=day)
    return used, budget


def turn_account(*, user_id: int, day: dt.date) -> tuple[int, int, str | None]:
    """What a turn needs to know of the user before the model, in one query: usage_status, and their stored
    personal key (chat.selectors.provider_from turns it into the provider). Written out because it runs
    before every turn: on the bench machine the ORM's versions (User annotated with two Subquery, and a
    query for the key) took 1.2 + 0.45 ms, mostly building and compiling them; this takes 0.34 ms."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT tokens FROM {DailyUsage._meta.db_table} WHERE user_id = %s AND day = %s),"
            f" (SELECT daily_tokens FROM {TokenBudget._meta.db_table} WHERE user_id = %s),"
            f" (SELECT ciphertext FROM {ProviderKey._meta.db_table} WHERE user_id = %s)",
            [user_id, day, user_id, user_id],
        )
        used, override, ciphertext = cursor.fetchone()
    return used or 0, effective_budget(override), ciphertext


def limit_message(budget: int, timezone_name: str, *, now: dt.datetime | None = None) -> str:
    tz = zoneinfo.ZoneInfo(timezone_name)
    local = (now or timezone.now()).astimezone(tz)
    midnight = dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time(), tzinfo=tz)
    minutes = max(1, round((midnight - local).total_seconds() / 60))
    wait = f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"
    return (
        f"You have used today's assistant allowance ({budget:,} tokens). "
        f"It resets at midnight in your timezone ({timezone_name}), in about {wait}."
    )

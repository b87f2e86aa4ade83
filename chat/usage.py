"""The per-user daily budget, in tokens (ZEUS_DAILY_TOKEN_BUDGET) and/or in money
(ZEUS_DAILY_COST_BUDGET_USD), each with a staff override per user.

Usage is a counter row per user and local day (tokens and USD), bumped with F() when a turn's reply is
stored, so turns in every process add up instead of overwriting. A turn reads the counters and the budgets
once, in the trip that stores its user message; before each model call it compares those figures plus its
own spend so far with the budgets, without another query. Turns running at the same moment in other threads
of the same user are seen by the next turn, so a day can end over budget by at most what those concurrent
turns spent. Tokens counted: input and output as they are, cache writes and reads weighted by their price
relative to input (chat/pricing.py: 1.25x and 0.05x on Sonnet 5.5), so a cached turn counts what it costs.
"""

import datetime as dt
import zoneinfo
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from chat.models import DailyUsage, ProviderKey, TokenBudget
from chat.provider.client import ProviderFailure
from zeus.consent import consent_holds
from zeus.models import ModelConsent


class UsageLimitReached(ProviderFailure):
    def __init__(self, message: str):
        super().__init__("USAGE_LIMIT", message, retryable=False)


def daily_usage_charge(*, user_id: int, day: dt.date, tokens: int, cost_usd: Decimal = Decimal(0)) -> None:
    if tokens <= 0 and cost_usd <= 0:
        return
    bump = {"tokens": F("tokens") + tokens, "cost_usd": F("cost_usd") + cost_usd}
    if DailyUsage.objects.filter(user_id=user_id, day=day).update(**bump):
        return
    try:
        with transaction.atomic():
            DailyUsage.objects.create(user_id=user_id, day=day, tokens=tokens, cost_usd=cost_usd)
    except IntegrityError:
        # Another process created the day's row first.
        DailyUsage.objects.filter(user_id=user_id, day=day).update(**bump)


def daily_usage_reset(*, usage_ids) -> int:
    """Staff action: the selected days start again from zero."""
    return DailyUsage.objects.filter(id__in=list(usage_ids)).update(
        tokens=0, cost_usd=Decimal(0), reset_at=timezone.now()
    )


def token_budget_set(
    *, user, daily_tokens: int | None, daily_cost_usd: Decimal | None = None, note: str = ""
) -> TokenBudget | None:
    """A per-user override; with neither a token nor a money figure it is removed (the settings apply)."""
    if daily_tokens is None and daily_cost_usd is None:
        TokenBudget.objects.filter(user=user).delete()
        return None
    budget, _created = TokenBudget.objects.update_or_create(
        user=user, defaults={"daily_tokens": daily_tokens, "daily_cost_usd": daily_cost_usd, "note": note}
    )
    return budget


def effective_budget(override: int | None) -> int:
    return settings.ZEUS_DAILY_TOKEN_BUDGET if override is None else override


def cost_budget_setting() -> Decimal:
    """ZEUS_DAILY_COST_BUDGET_USD as Decimal; empty (or unreadable, which the system check reports) = 0."""
    raw = str(getattr(settings, "ZEUS_DAILY_COST_BUDGET_USD", "") or "").strip()
    try:
        value = Decimal(raw) if raw else Decimal(0)
    except InvalidOperation:
        return Decimal(0)
    return value if value.is_finite() and value > 0 else Decimal(0)


def effective_cost_budget(override: Decimal | None) -> Decimal:
    return cost_budget_setting() if override is None else Decimal(override)


@dataclass(frozen=True)
class Account:
    """A user's day as a turn reads it: what was spent and the budgets (0 = unlimited)."""

    tokens_used: int
    cost_used: Decimal
    token_budget: int
    cost_budget: Decimal
    ciphertext: str | None = None
    consent_given: bool = False  # the user's newest consent decision holds now (zeus.consent.consent_holds)


def usage_status(*, user_id: int, day: dt.date) -> tuple[int, int]:
    """(tokens used on `day`, the user's token budget; 0 = unlimited), in one query."""
    account = turn_account(user_id=user_id, day=day)
    return account.tokens_used, account.token_budget


def turn_account(*, user_id: int, day: dt.date) -> Account:
    """What a turn needs to know of the user before the model, in one query: their newest consent decision (the
    row zeus.selectors.consent_given reads), the day's spend, the budgets, and their stored personal key
    (chat.selectors.provider_from turns it into the provider). Written out because it runs before every turn:
    the ORM's version (User annotated with Subquery, and further queries for the consent and the key) spends
    most of its time building and compiling the querysets, on the path of every turn."""
    usage, budget = DailyUsage._meta.db_table, TokenBudget._meta.db_table
    newest_consent = f"FROM {ModelConsent._meta.db_table} WHERE user_id = %s ORDER BY id DESC LIMIT 1"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT tokens FROM {usage} WHERE user_id = %s AND day = %s),"
            f" (SELECT cost_usd FROM {usage} WHERE user_id = %s AND day = %s),"
            f" (SELECT daily_tokens FROM {budget} WHERE user_id = %s),"
            f" (SELECT daily_cost_usd FROM {budget} WHERE user_id = %s),"
            f" (SELECT ciphertext FROM {ProviderKey._meta.db_table} WHERE user_id = %s),"
            f" (SELECT granted {newest_consent}), (SELECT version {newest_consent})",
            [user_id, day, user_id, day, user_id, user_id, user_id, user_id, user_id],
        )
        used, cost, override, cost_override, ciphertext, granted, version = cursor.fetchone()
    return Account(
        tokens_used=used or 0,
        cost_used=Decimal(cost or 0),
        token_budget=effective_budget(override),
        cost_budget=effective_cost_budget(cost_override),
        ciphertext=ciphertext,
        consent_given=consent_holds(granted, version),
    )


def budget_reached(*, tokens: int, cost: Decimal, token_budget: int, cost_budget: Decimal) -> str | None:
    """Which budget today's spend has reached ("tokens" | "cost"), or None; 0 is unlimited."""
    if token_budget and tokens >= token_budget:
        return "tokens"
    if cost_budget and cost >= cost_budget:
        return "cost"
    return None


def cost_limit_message(budget: Decimal, timezone_name: str, *, now: dt.datetime | None = None) -> str:
    from zeus.money import format_amount  # Babel, imported when a limit is met (tests/test_startup.py)

    allowance = format_amount(Decimal(budget), "USD", locale=get_language())
    return limit_message(0, timezone_name, now=now, allowance=allowance)


def limit_message(
    budget: int, timezone_name: str, *, now: dt.datetime | None = None, allowance: str | None = None
) -> str:
    tz = zoneinfo.ZoneInfo(timezone_name)
    local = (now or timezone.now()).astimezone(tz)
    midnight = dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time(), tzinfo=tz)
    minutes = max(1, round((midnight - local).total_seconds() / 60))
    from zeus.formatting import number_text  # Babel, imported when a limit is met (tests/test_startup.py)

    wait = (
        _("%(hours)s h %(minutes)s min") % {"hours": minutes // 60, "minutes": f"{minutes % 60:02d}"}
        if minutes >= 60
        else _("%(minutes)s min") % {"minutes": minutes}
    )
    allowance = allowance or _("%(count)s tokens") % {"count": number_text(budget)}
    return _(
        "You have used today's assistant allowance (%(allowance)s). It resets at midnight in your timezone "
        "(%(timezone)s), in about %(wait)s."
    ) % {"allowance": allowance, "timezone": timezone_name, "wait": wait}

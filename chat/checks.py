"""System checks: a configured model the SDK lists as deprecated or retired (chat.W001 / chat.W002), a
ZEUS_MODEL_PRICES that does not parse (chat.E001), a ZEUS_EFFORT level the models refuse (chat.E002), a
ZEUS_DAILY_COST_BUDGET_USD that is no amount (chat.E003)."""

from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.core import checks
from django.utils import timezone

from chat.model_lifecycle import ModelNotice, model_notice
from chat.pricing import PriceTableInvalid, parse_overrides
from chat.provider.wire import EffortInvalid, parse_effort

MODEL_SETTINGS = ("ZEUS_MODEL", "ZEUS_ROUTER_MODEL")


def model_notices(*, today=None) -> list[ModelNotice]:
    today = today or timezone.now().date()
    found = (model_notice(name, getattr(settings, name, ""), today=today) for name in MODEL_SETTINGS)
    return [notice for notice in found if notice is not None]


@checks.register(checks.Tags.compatibility)
def check_models(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    return [
        checks.Warning(
            notice.message,
            hint="See docs/chat.md (Models) for what Zeus sends to each model.",
            id="chat.W002" if notice.retired else "chat.W001",
        )
        for notice in model_notices()
    ]


@checks.register()
def check_prices(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    try:
        parse_overrides(getattr(settings, "ZEUS_MODEL_PRICES", "") or "")
    except PriceTableInvalid as exc:
        return [checks.Error(str(exc), hint="See .env.example for the format.", id="chat.E001")]
    return []


@checks.register()
def check_effort(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    try:
        parse_effort(getattr(settings, "ZEUS_EFFORT", "") or "")
    except EffortInvalid as exc:
        return [checks.Error(str(exc), hint="For example: ZEUS_EFFORT=default=low,coach=medium", id="chat.E002")]
    return []


@checks.register()
def check_cost_budget(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    raw = str(getattr(settings, "ZEUS_DAILY_COST_BUDGET_USD", "") or "").strip()
    try:
        value = Decimal(raw) if raw else Decimal(0)
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value < 0:
        return [checks.Error(f"ZEUS_DAILY_COST_BUDGET_USD={raw!r} is not an amount of USD.", id="chat.E003")]
    return []

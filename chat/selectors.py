"""Reads of threads, messages and provider settings, always scoped to one user."""

import base64
import binascii
import datetime as dt
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from chat import crypto
from chat.models import Message, ProviderKey, SentToModel, Thread, TurnRun
from zeus.errors import NotFound, ValidationFailed

CONTEXT_LIMIT = 10
DEFAULT_PAGE = 50
MAX_PAGE = 100


def thread_list(*, user) -> QuerySet[Thread]:
    return Thread.objects.filter(user=user).order_by("-last_activity_at", "-created_at")


def thread_get(*, user, thread_id) -> Thread:
    """The user's thread; another user's or an unknown id is NotFound, never a hint that it exists."""
    try:
        key = thread_id if isinstance(thread_id, uuid.UUID) else uuid.UUID(str(thread_id))
        return Thread.objects.get(user=user, id=key)
    except (Thread.DoesNotExist, ValueError, TypeError, AttributeError):
        raise NotFound(_("No such thread.")) from None


def message_to_dict(message: Message) -> dict:
    """The one shape of a message: REST history, the `done` frame and the `message` frame."""
    return {
        "id": message.id,
        "role": message.role,
        "parts": message.parts,
        "metadata": message.metadata,
        "created_at": message.created_at.isoformat(),
    }


@dataclass(frozen=True)
class MessagePage:
    messages: list[Message]  # oldest first
    has_more: bool
    prev_cursor: str | None


def encode_cursor(message_id: int) -> str:
    return base64.urlsafe_b64encode(f"m{message_id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        if not raw.startswith("m") or not raw[1:].isdigit():
            raise ValueError(raw)
        return int(raw[1:])
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise ValidationFailed(
            _("That page cursor is not valid."), code="INVALID_CURSOR", fields={"before": [_("Not a valid cursor.")]}
        ) from None


def parse_page_limit(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_PAGE
    try:
        limit = int(raw)
    except ValueError:
        limit = 0
    if not 1 <= limit <= MAX_PAGE:
        raise ValidationFailed(
            _("limit must be a whole number from 1 to %(MAX_PAGE)s.") % {"MAX_PAGE": MAX_PAGE},
            fields={"limit": [_("Out of range.")]},
        )
    return limit


def message_page(*, thread: Thread, before: str | None = None, limit: int = DEFAULT_PAGE) -> MessagePage:
    """A page of history ending just before `before` (newest page when absent), oldest first."""
    qs = Message.objects.filter(thread=thread)
    if before:
        qs = qs.filter(id__lt=decode_cursor(before))
    newest_first = list(qs.order_by("-id")[: limit + 1])
    has_more = len(newest_first) > limit
    page = newest_first[:limit][::-1]
    return MessagePage(
        messages=page, has_more=has_more, prev_cursor=encode_cursor(page[0].id) if has_more and page else None
    )


def message_known(*, thread_id, client_id: str) -> bool:
    return Message.objects.filter(thread_id=thread_id, client_id=client_id).exists()


def context_messages(*, thread_id, limit: int = CONTEXT_LIMIT) -> list[Message]:
    """The newest `limit` persisted messages, oldest first: what the model sees. Only what the conversation is
    rebuilt from is read (role and parts); a turn never looks at the older messages' metadata."""
    newest = Message.objects.filter(thread_id=thread_id).only("id", "role", "parts").order_by("-id")[:limit]
    return list(newest)[::-1]


def provider_key_exists(*, user) -> bool:
    return ProviderKey.objects.filter(user=user).exists()


@dataclass(frozen=True)
class Provider:
    api_key: str
    base_url: str | None
    personal: bool


def provider_for(*, user) -> Provider | None:
    """The personal key wins over the server key; None when there is neither."""
    return provider_from(ProviderKey.objects.filter(user=user).values_list("ciphertext", flat=True).first())


def provider_from(ciphertext: str | None) -> Provider | None:
    """provider_for, given the user's stored key (None: they have none)."""
    personal = crypto.decrypt(ciphertext) if ciphertext else None
    if personal:
        return Provider(api_key=personal, base_url=settings.ANTHROPIC_BASE_URL or None, personal=True)
    if settings.ANTHROPIC_API_KEY:
        return Provider(
            api_key=settings.ANTHROPIC_API_KEY, base_url=settings.ANTHROPIC_BASE_URL or None, personal=False
        )
    return None


def daily_usage_summary(*, since: dt.date, until: dt.date, username: str = "") -> list[dict]:
    """Per user and local day: turns, model and tool calls, tokens by kind, cost in USD, replies with
    unverified figures, errors — one aggregate query."""
    runs = TurnRun.objects.filter(day__gte=since, day__lte=until)
    if username:
        runs = runs.filter(user__username__icontains=username)
    return list(
        runs.values("user_id", "user__username", "day")
        .annotate(
            turns=Count("id"),
            admin_turns=Count("id", filter=Q(admin_initiated=True)),
            model_calls=Sum("model_calls"),
            tool_calls=Sum("tool_calls"),
            input_tokens=Sum("input_tokens"),
            output_tokens=Sum("output_tokens"),
            cache_read_tokens=Sum("cache_read_tokens"),
            cache_write_tokens=Sum("cache_write_tokens"),
            cost_usd=Sum("cost_usd"),
            flagged=Count("id", filter=Q(unverified_count__gt=0)),
            errors=Count("id", filter=Q(outcome=TurnRun.Outcome.ERROR)),
            aborted=Count("id", filter=Q(outcome=TurnRun.Outcome.ABORTED)),
        )
        .order_by("-day", "user__username")
    )


SUMMED = (
    "turns",
    "admin_turns",
    "model_calls",
    "tool_calls",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "cost_usd",
    "flagged",
    "errors",
    "aborted",
)


def usage_totals(rows: list[dict]) -> tuple[list[dict], dict]:
    """daily_usage_summary's rows → (one total per day, newest first; the grand total). Pure."""
    days: dict = {}
    grand = dict.fromkeys(SUMMED, 0)
    for row in rows:
        day = days.setdefault(row["day"], {"day": row["day"], "users": 0, **dict.fromkeys(SUMMED, 0)})
        day["users"] += 1
        for key in SUMMED:
            day[key] += row.get(key) or 0
            grand[key] += row.get(key) or 0
    grand["users"] = len({row["user_id"] for row in rows})
    return sorted(days.values(), key=lambda d: d["day"], reverse=True), grand


def sent_to_model_get(*, thread: Thread, message_id) -> SentToModel:
    """What the turn of this reply in the user's thread sent to the model (chat/turn/sent.py); NotFound for a
    user's message, a reply that sent nothing, or any message of another thread."""
    try:
        return SentToModel.objects.select_related("message").get(message__thread=thread, message_id=int(message_id))
    except (SentToModel.DoesNotExist, ValueError, TypeError, OverflowError):
        raise NotFound(_("Nothing was sent to the model for this message.")) from None

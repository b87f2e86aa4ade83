"""Reads of a user's suggestions (the rule-based ones and the insights alike)."""

from collections.abc import Iterable

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from suggestions.models import Suggestion
from zeus.errors import NotFound, ValidationFailed


def suggestion_list(*, user, status: str | None = Suggestion.Status.ACTIVE) -> QuerySet[Suggestion]:
    """Active ones by default; `status` may be active, dismissed, completed or all."""
    qs = Suggestion.objects.filter(user=user)
    if status and status != "all":
        if status not in Suggestion.Status.values:
            raise ValidationFailed(
                _("status must be active, dismissed, completed or all."), fields={"status": [_("Not valid.")]}
            )
        qs = qs.filter(status=status)
    return qs.order_by("-created_at", "-id")


def suggestion_list_active(*, user, limit: int = 5) -> list[Suggestion]:
    """The newest active suggestions, as a list (safe to hand across sync_to_async). The chat reads these."""
    limit = max(1, min(int(limit), 50))
    return list(suggestion_list(user=user)[:limit])


def home_insights(*, user, limit: int) -> list[Suggestion]:
    """The home's insights panel: the newest active suggestions, `limit` of them."""
    return list(suggestion_list(user=user)[:limit])


def suggestion_to_dict(suggestion: Suggestion) -> dict:
    """The one public shape of a suggestion (docs/contract/rest.md), for the chat's tools and cards."""
    return {
        "id": suggestion.id,
        "kind": suggestion.kind,
        "title": suggestion.words.title,
        "body": suggestion.words.body,
        "cta_url": suggestion.words.cta_url,
        "prompt": suggestion.words.prompt,
        "status": suggestion.status,
        "created_at": suggestion.created_at.isoformat(),
    }


def suggestion_get(*, user, suggestion_id) -> Suggestion:
    try:
        return Suggestion.objects.get(user=user, id=int(suggestion_id))
    except (Suggestion.DoesNotExist, TypeError, ValueError):
        raise NotFound(_("No such suggestion.")) from None


def existing_dedupe_keys(*, user_ids: list[int], keys: Iterable[str]) -> dict[tuple[int, str], dict]:
    """(user id, key) → payload of the suggestions that already hold these keys, in any status."""
    keys = list(set(keys))
    if not keys:
        return {}
    rows = Suggestion.objects.filter(user_id__in=user_ids, dedupe_key__in=keys).values_list(
        "user_id", "dedupe_key", "payload"
    )
    return {(u, k): p for u, k, p in rows}

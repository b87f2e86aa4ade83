from django.contrib.auth import get_user_model
from django.core.management.base import CommandError


def user_ids_for(username: str | None) -> list[int] | None:
    """`--user U` → that user's id; no option → None (every active user)."""
    if username is None:
        return None
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"No user named {username!r}.")
    return [user.id]

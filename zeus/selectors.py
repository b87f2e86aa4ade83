import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db.models import QuerySet
from django.utils import translation

from zeus import consent
from zeus.mail import language_code
from zeus.models import ModelConsent, Notification, Profile
from zeus.queries import AnyOf


def profile_get(*, user) -> Profile:
    """The user's profile; cached on the user object for the request."""
    cached = getattr(user, "_zeus_profile", None)
    if cached is None:
        cached, _ = Profile.objects.get_or_create(user=user)
        profile_remember(user=user, profile=cached)
    return cached


def user_languages(*, user_ids) -> dict[int, str]:
    """Each user's language (vi or en) in one query, for jobs that write to many users: two columns, no
    profile built per user."""
    rows = Profile.objects.filter(user_id__in=list(user_ids)).values_list("user_id", "language")
    return {user_id: language_code(language) for user_id, language in rows}


def profile_remember(*, user, profile: Profile) -> None:
    """Keeps the profile on the user for the request, and the user on the profile (its `user` is then no
    query of its own: /profile shows the username)."""
    profile.user = user
    user._zeus_profile = profile


def profiles_remember(*, users) -> None:
    """profile_get for many users (a job's batch): one query for those whose profile is not yet remembered,
    a get_or_create only for a user who has none."""
    wanted = {user.pk: user for user in users if getattr(user, "_zeus_profile", None) is None}
    if not wanted:
        return  # an empty ANY is still a query, where an empty IN was none
    for profile in Profile.objects.filter(AnyOf("user_id", wanted)):
        profile_remember(user=wanted.pop(profile.user_id), profile=profile)
    for user in wanted.values():
        profile_get(user=user)


def user_currency(user) -> str:
    return profile_get(user=user).currency


def notification_list(*, user, unread: bool | None = None) -> QuerySet[Notification]:
    qs = Notification.objects.filter(user=user)
    if unread is not None:
        qs = qs.filter(read_at__isnull=unread)
    return qs


def notification_unread_count(*, user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notification_pushed(notifications: list[Notification], *, languages: dict[int, str] | None = None):
    """The render for live pushes of these notifications (zeus.live.push_many passes those of the users
    online): each in its reader's language (the job that wrote it speaks none in particular). The languages
    are read here, in one query, since the render runs on the event loop, unless the caller has them (a job
    that read them with its batch)."""
    if languages is None:
        languages = user_languages(user_ids={n.user_id for n in notifications})

    def render(notification: Notification) -> dict:
        with translation.override(languages.get(notification.user_id, settings.LANGUAGE_CODE)):
            return notification_to_dict(notification)

    return render


def notification_to_dict(notification: Notification) -> dict:
    """The one shape a notification has, in the REST API and in the live `notification` frame."""
    return {
        "id": notification.id,
        "kind": notification.kind,
        "title": notification.words.title,
        "body": notification.words.body,
        "cta_url": notification.words.cta_url,
        "read_at": notification.read_at.isoformat() if notification.read_at else None,
        "created_at": notification.created_at.isoformat(),
    }


@dataclass(frozen=True)
class ConsentState:
    """The user's newest decision about the model provider, read against the current consent text."""

    granted: bool | None  # the newest decision; None when never asked
    version: int | None  # the consent text's version that decision was about
    decided_at: dt.datetime | None

    @property
    def given(self) -> bool:
        """Consent holds now: granted, for the text in force (a new version asks again)."""
        return consent.consent_holds(self.granted, self.version)


def consent_state(*, user_id: int) -> ConsentState:
    newest = ModelConsent.objects.filter(user_id=user_id).order_by("-id").first()
    if newest is None:
        return ConsentState(granted=None, version=None, decided_at=None)
    return ConsentState(granted=newest.granted, version=newest.version, decided_at=newest.created_at)


def consent_given(*, user_id: int) -> bool:
    """Whether anything of this user's may go to the model provider now: one indexed query."""
    newest = ModelConsent.objects.filter(user_id=user_id).order_by("-id").values_list("granted", "version").first()
    return newest is not None and consent.consent_holds(*newest)

"""How allauth fits Zeus: the client address behind trusted proxies, the newcomer's language, mail in the
reader's language."""

from types import SimpleNamespace
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.db import transaction
from django.utils import translation

from zeus.lockout import client_ip
from zeus.mail import profile_language
from zeus.models import Profile
from zeus.services import profile_update


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request) -> str:
        # allauth's rate limits and the session list see the client the trusted proxy reports, as django-axes
        # does: behind a load balancer every request would otherwise come from one address.
        return client_ip(request) or super().get_client_ip(request)

    def pre_authenticate(self, request, **credentials):
        # Failed passwords are counted by django-axes, per account and per client (zeus/lockout.py), which
        # answers 429 with Retry-After; allauth's own count would answer first with a form error. Its
        # "login_failed" limit still bounds guesses of a second factor's code, per user.
        self._login_failed_rl_usage = None

    def save_user(self, request, user, form, commit=True):
        with transaction.atomic():
            user = super().save_user(request, user, form, commit=commit)
            if commit:
                # A newcomer reads Zeus in the language their browser asked for (zeus/i18n.py chose it).
                profile_update(user=user, language=getattr(request, "LANGUAGE_CODE", None) or "vi")
        return user

    def send_mail(self, template_prefix, email, context):
        # A mail to a known person (a password reset, a confirmation) is written in their language, whatever
        # the language of the page that caused it.
        user = context.get("user")
        profile = Profile.objects.filter(user_id=getattr(user, "pk", None)).first() if user is not None else None
        language = profile_language(profile) if profile is not None else translation.get_language()
        # Signed "Zeus" at the site as its users reach it, not by whatever host the request came through.
        site = SimpleNamespace(name="Zeus", domain=urlsplit(settings.ZEUS_SITE_URL).netloc)
        with translation.override(language):
            super().send_mail(template_prefix, email, {**context, "current_site": site})

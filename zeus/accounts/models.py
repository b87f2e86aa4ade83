"""allauth's second factors and sessions as the admin names them: allauth gives these models no translatable
names, so proxies (no table of their own) carry Vietnamese and English ones for the support staff's admin."""

from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from django.utils.translation import gettext_lazy as _


class SecondFactor(Authenticator):
    class Meta:
        proxy = True
        verbose_name = _("second factor")
        verbose_name_plural = _("second factors")


class SignedInSession(UserSession):
    class Meta:
        proxy = True
        verbose_name = _("signed-in session")
        verbose_name_plural = _("signed-in sessions")

"""What the forecast keeps per user: the cushion the shortfall notice measures against, and whether a
shortfall episode is open (one notice per episode: it closes when the forecast clears the cushion again)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from zeus.money import DECIMAL_PLACES, MAX_DIGITS


class ForecastWatch(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="forecast_watch", verbose_name=_("user")
    )
    cushion = models.DecimalField(
        max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES, default=0, verbose_name=_("cushion")
    )
    in_shortfall = models.BooleanField(default=False, verbose_name=_("in shortfall"))
    checked_on = models.DateField(
        null=True, blank=True, verbose_name=_("checked on")
    )  # the local day the daily job last looked
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        app_label = "plans"

    def __str__(self):
        return f"{self.user_id}: cushion {self.cushion}"

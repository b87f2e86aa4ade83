from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlansConfig(AppConfig):
    name = "plans"
    verbose_name = _("Monthly plans")

    def ready(self):
        from plans import account_data, forecast_home, home
        from zeus.panels import Panel, register

        register(Panel("home", "safe-to-spend", 15, "plans/home/safe_to_spend.html", home.safe_to_spend_panel))
        register(Panel("home", "forecast", 17, "plans/home/forecast.html", forecast_home.forecast_panel, wide=True))
        account_data.register_all()

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlansConfig(AppConfig):
    name = "plans"
    verbose_name = _("Monthly plans")

    def ready(self):
        from plans import account_data, forecast_home, home
        from plans.forecast_jobs import shortfall_words
        from plans.jobs import month_end_words, reminder_words
        from zeus.panels import Panel, register
        from zeus.wording import notification_writer_register

        # The plans' notices are worded when read, in the reader's language.
        notification_writer_register(kind="plan_reminder", writer=reminder_words)
        notification_writer_register(kind="month_end_summary", writer=month_end_words)
        notification_writer_register(kind="cash_shortfall", writer=shortfall_words)

        register(Panel("home", "safe-to-spend", 15, "plans/home/safe_to_spend.html", home.safe_to_spend_panel))
        register(Panel("home", "forecast", 17, "plans/home/forecast.html", forecast_home.forecast_panel, wide=True))
        account_data.register_all()

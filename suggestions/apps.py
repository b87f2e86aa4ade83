from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SuggestionsConfig(AppConfig):
    name = "suggestions"
    verbose_name = _("Suggestions and insights")

    def ready(self):
        from suggestions import account_data, home, receivers  # noqa: F401
        from suggestions.digest.texts import notice_words
        from suggestions.insights.wording import insight_notification_words
        from suggestions.recurring import forecast_answers  # noqa: F401
        from zeus.panels import Panel, register
        from zeus.wording import notification_writer_register

        # An insight's inbox row is worded when read, in the reader's language.
        notification_writer_register(kind="insight", writer=insight_notification_words)
        notification_writer_register(kind="weekly_digest", writer=notice_words)

        register(Panel("home", "insights", 45, "suggestions/home/insights.html", home.insights_panel))
        register(Panel("home", "bills", 50, "suggestions/home/bills.html", home.bills_panel))
        account_data.register_all()

from django.apps import AppConfig


class SuggestionsConfig(AppConfig):
    name = "suggestions"

    def ready(self):
        from suggestions import account_data, home, receivers  # noqa: F401
        from suggestions.recurring import forecast_answers  # noqa: F401
        from zeus.panels import Panel, register

        register(Panel("home", "insights", 45, "suggestions/home/insights.html", home.insights_panel))
        register(Panel("home", "bills", 50, "suggestions/home/bills.html", home.bills_panel))
        account_data.register_all()

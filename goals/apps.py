from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GoalsConfig(AppConfig):
    name = "goals"
    verbose_name = _("Goals and budgets")

    def ready(self):
        from assets.signals import synced_income_landed
        from goals import home
        from goals.debts.settling import on_synced_income

        synced_income_landed.connect(on_synced_income, dispatch_uid="goals.debts.settle")
        from goals import account_data
        from zeus.panels import Panel, register

        register(Panel("home", "budgets", 30, "goals/home/budgets.html", home.budgets_panel))
        register(Panel("home", "goals", 40, "goals/home/goals.html", home.goals_panel))
        account_data.register_all()

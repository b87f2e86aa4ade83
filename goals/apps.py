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
        from goals.debts.reminders import card_due_words, debt_due_words
        from goals.debts.settling import debt_paid_words
        from zeus.panels import Panel, register
        from zeus.wording import notification_writer_register

        # The debts' and cards' notices are worded when read, in the reader's language.
        notification_writer_register(kind="debt_settled", writer=debt_paid_words)
        notification_writer_register(kind="debt_due", writer=debt_due_words)
        notification_writer_register(kind="card_due", writer=card_due_words)

        register(Panel("home", "budgets", 30, "goals/home/budgets.html", home.budgets_panel))
        register(Panel("home", "goals", 40, "goals/home/goals.html", home.goals_panel))
        account_data.register_all()

from django.apps import AppConfig


class GoalsConfig(AppConfig):
    name = "goals"

    def ready(self):
        from goals import home
        from zeus.panels import Panel, register

        register(Panel("home", "budgets", 30, "goals/home/budgets.html", home.budgets_panel))
        register(Panel("home", "goals", 40, "goals/home/goals.html", home.goals_panel))

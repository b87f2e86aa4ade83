from django.apps import AppConfig


class PlansConfig(AppConfig):
    name = "plans"

    def ready(self):
        from plans import home
        from zeus.panels import Panel, register

        register(Panel("home", "safe-to-spend", 15, "plans/home/safe_to_spend.html", home.safe_to_spend_panel))
        register(Panel("home", "bills", 50, "plans/home/bills.html", home.bills_panel))

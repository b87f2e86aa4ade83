from django.apps import AppConfig


class AssetsConfig(AppConfig):
    name = "assets"

    def ready(self):
        from assets import home
        from zeus.panels import Panel, register

        register(Panel("home", "net-worth", 10, "assets/home/net_worth.html", home.net_worth_panel))
        register(Panel("home", "this-month", 20, "assets/home/this_month.html", home.this_month_panel))

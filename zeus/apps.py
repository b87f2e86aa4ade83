from django.apps import AppConfig


class ZeusConfig(AppConfig):
    name = "zeus"
    verbose_name = "Zeus"

    def ready(self):
        from zeus import signals  # noqa: F401
        from zeus.account_data import lock, tasks, zeus_records  # noqa: F401  (the sign-in receiver, the tasks)
        from zeus.account_data.pages import data_panel_ctx
        from zeus.panels import Panel, register

        zeus_records.register_all()
        register(Panel("settings", "your-data", 60, "zeus/account_data_panel.html", data_panel_ctx))

from django.apps import AppConfig


class ZeusConfig(AppConfig):
    name = "zeus"
    verbose_name = "Zeus"

    def ready(self):
        from zeus import consent_pages, signals  # noqa: F401
        from zeus.account_data import lock, zeus_records  # noqa: F401  (the sign-in receiver)
        from zeus.account_data.export import export_ready_words
        from zeus.account_data.pages import data_panel_ctx
        from zeus.panels import Panel, register
        from zeus.push import push_panel
        from zeus.wording import notification_writer_register

        zeus_records.register_all()
        notification_writer_register(kind="account_export_ready", writer=export_ready_words)
        register(Panel("settings", "push", 5, "zeus/settings_push.html", push_panel))
        register(Panel("settings", "consent", 35, "zeus/consent_panel.html", consent_pages.consent_context))
        register(Panel("settings", "your-data", 60, "zeus/account_data_panel.html", data_panel_ctx))

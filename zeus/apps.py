from django.apps import AppConfig


class ZeusConfig(AppConfig):
    name = "zeus"
    verbose_name = "Zeus"

    def ready(self):
        from zeus import consent_pages, signals  # noqa: F401
        from zeus.panels import Panel, register
        from zeus.push import push_panel

        register(Panel("settings", "push", 5, "zeus/settings_push.html", push_panel))
        register(Panel("settings", "consent", 35, "zeus/consent_panel.html", consent_pages.consent_context))

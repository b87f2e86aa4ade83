from django.apps import AppConfig


class ZeusConfig(AppConfig):
    name = "zeus"
    verbose_name = "Zeus"

    def ready(self):
        from zeus import signals  # noqa: F401
        from zeus.panels import Panel, register
        from zeus.push import push_panel

        register(Panel("settings", "push", 5, "zeus/settings_push.html", push_panel))

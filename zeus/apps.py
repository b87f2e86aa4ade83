from django.apps import AppConfig


class ZeusConfig(AppConfig):
    name = "zeus"
    verbose_name = "Zeus"

    def ready(self):
        from zeus import signals  # noqa: F401

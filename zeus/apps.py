from django.apps import AppConfig


class ZeusConfig(AppConfig):
    name = "zeus"
    verbose_name = "Zeus"

    def ready(self):
        from zeus import signals  # noqa: F401
        from zeus.account_data import lock, tasks, zeus_records  # noqa: F401

        zeus_records.register_all()

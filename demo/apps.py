from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Demo data for `make run`. Sits above every other app: it may import any of them, nothing imports it."""

    name = "demo"

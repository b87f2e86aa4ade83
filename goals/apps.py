from django.apps import AppConfig


class GoalsConfig(AppConfig):
    name = "goals"

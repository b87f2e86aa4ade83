from django.apps import AppConfig


class SuggestionsConfig(AppConfig):
    name = "suggestions"

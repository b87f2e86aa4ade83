from django.apps import AppConfig


class SuggestionsConfig(AppConfig):
    name = "suggestions"

    def ready(self):
        from suggestions import receivers  # noqa: F401

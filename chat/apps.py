import logging

from django.apps import AppConfig

log = logging.getLogger("chat")


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self):
        from django.contrib import admin

        from chat import checks

        # daphne and celery run no system checks: a deprecated or retired model is also logged at start-up.
        for notice in checks.model_notices():
            log.warning("%s", notice.message)
        # The admin index shows the same notices (templates/admin/chat_index.html).
        admin.site.index_template = "admin/chat_index.html"

import logging

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

log = logging.getLogger("chat")


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Chat")

    def ready(self):
        from django.contrib import admin

        from chat import account_data, checks, pages
        from zeus.panels import Panel, register

        register(Panel("settings", "provider-key", 40, "chat/provider_key_panel.html", pages.provider_key_panel_ctx))
        register(Panel("settings", "mcp-token", 50, "chat/mcp_token_panel.html", pages.mcp_token_panel_ctx))

        from assets.captures.reader import register_reader
        from chat.capture import read_capture

        register_reader(read_capture)

        # daphne and celery run no system checks: a deprecated or retired model is also logged at start-up.
        for notice in checks.model_notices():
            log.warning("%s", notice.message)
        # The admin index shows the same notices (templates/admin/chat_index.html).
        admin.site.index_template = "admin/chat_index.html"
        account_data.register_all()

from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self):
        from chat import pages
        from zeus.panels import Panel, register

        register(Panel("settings", "provider-key", 40, "chat/provider_key_panel.html", pages.provider_key_panel_ctx))
        register(Panel("settings", "mcp-token", 50, "chat/mcp_token_panel.html", pages.mcp_token_panel_ctx))

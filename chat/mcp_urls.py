from django.urls import path

from chat.mcp.api import McpTokenView

urlpatterns = [
    path("chat/mcp-token", McpTokenView.as_view()),
]

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.base")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from chat.mcp.asgi import with_mcp  # noqa: E402
from chat.routing import websocket_urlpatterns  # noqa: E402
from zeus.degraded import WebsocketDependencyGuard  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": with_mcp(django_asgi_app),
        "websocket": WebsocketDependencyGuard(
            AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

"""The ASGI application the chat benchmark serves: Zeus as deployed, plus a bare echo consumer behind the
same middleware (origin check, session auth) as the baseline. Bench only."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.test")
django.setup()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from chat import limits  # noqa: E402
from chat.routing import websocket_urlpatterns  # noqa: E402
from zeus.asgi import application as zeus_application  # noqa: E402

# The benchmark measures latency, not the limiter: each socket sends far more than 10 turns a minute.
# The limiter still runs (its cache round trips are part of every measured turn).
limits.TURNS_PER_MINUTE = 10**9


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        if not self.scope["user"].is_authenticated:
            await self.close()
            return
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)


application = ProtocolTypeRouter(
    {
        "http": zeus_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter([path("ws/echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns]))
        ),
    }
)

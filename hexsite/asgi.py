"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by Daphne)."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexsite.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up)
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from api.routing import http_urlpatterns as api_stream_urlpatterns  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402


class NoSuchSocket(AsyncWebsocketConsumer):
    """A socket to an address no route serves: refused at the handshake (Daphne answers 403),
    where the router alone would raise, and Daphne answer 500 and log a traceback."""

    async def connect(self):
        await self.close()


application = ProtocolTypeRouter(
    {
        # The API's NDJSON streams as asynchronous consumers (api/streams.py); every other
        # request through Django, static files too (WhiteNoise: settings.MIDDLEWARE).
        "http": URLRouter([*api_stream_urlpatterns, re_path(r"", django_asgi_app)]),
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(
            [*websocket_urlpatterns, re_path(r"", NoSuchSocket.as_asgi())]))),
    }
)

from hexsite.collector import tune_collector  # noqa: E402

tune_collector()

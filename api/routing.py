"""The API's streams, served as asynchronous HTTP by the ASGI processes (hexsite/asgi.py)."""
from django.urls import path

from api.streams import EventStream, GameStream

http_urlpatterns = [
    path("api/v1/games/<int:id>/stream", GameStream.as_asgi()),
    path("api/v1/stream/events", EventStream.as_asgi()),
]

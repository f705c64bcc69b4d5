from django.urls import path, re_path

from api import pages
from api import views  # noqa: F401  (declares the operations)
from api import leagues  # noqa: F401,E402  (the league operations, listed after the games')
from api import invitations  # noqa: F401,E402  (the invitation operations)
from api.http import OPERATIONS, no_such_endpoint, urlpatterns_for

urlpatterns = [
    path("v1/openapi.json", pages.openapi_json, name="api_openapi"),
    path("v1/docs", pages.docs, name="api_docs"),
    path("tokens/new", pages.token_new, name="api_token_new"),
    path("tokens/<int:token_id>/revoke", pages.token_revoke, name="api_token_revoke"),
    path("apps/<int:application_id>/revoke", pages.app_revoke, name="api_app_revoke"),
    *urlpatterns_for(OPERATIONS),
    re_path(r"^v1/(?P<rest>.*)$", no_such_endpoint),
]

from django.contrib import admin
from django.urls import include, path

from games.views import home
from hexsite import capacity_floor
from hexsite.i18n import javascript_catalog

handler500 = "hexsite.outages.server_error"  # an outage met by a middleware: a clear 503

urlpatterns = [
    path("", home, name="home"),
    path("admin/", admin.site.urls),
    path("jsi18n/<str:language>/", javascript_catalog, name="javascript_catalog"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("moderation/", include("moderation.urls")),
    path("api/", include("api.urls")),
    path("oauth/", include("api.oauth_urls")),  # third-party apps' tokens (api/oauth.py)
]
# The capacity harness's floor (benchmarks/capacity.py): only with HEXSITE_CAPACITY_FLOOR=1.
urlpatterns += capacity_floor.urlpatterns()

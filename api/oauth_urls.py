"""/oauth/: the authorization endpoint (the consent page), the token endpoint and revocation
(RFC 7009). Named as django-oauth-toolkit names them, in its namespace, as its views expect."""
from django.urls import path
from oauth2_provider import views as dot_views

from api.oauth_views import ConsentView

app_name = "oauth2_provider"

urlpatterns = [
    path("authorize/", ConsentView.as_view(), name="authorize"),
    path("token/", dot_views.TokenView.as_view(), name="token"),
    path("revoke/", dot_views.RevokeTokenView.as_view(), name="revoke-token"),
]

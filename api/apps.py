from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    """The public API (/api/v1/): personal tokens, JSON endpoints over the platform's services
    and selectors, NDJSON streams. The platform never imports it (a test checks)."""

    name = "api"
    verbose_name = _("API")
    default_auto_field = "django.db.models.BigAutoField"

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "games.leagues"
    label = "leagues"
    verbose_name = _("Leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.leagues import services  # noqa: F401  (connects the end-of-game receiver)

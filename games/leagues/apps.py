from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "games.leagues"
    label = "leagues"
    verbose_name = "Leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.leagues import services  # noqa: F401  (connects the end-of-game receiver)

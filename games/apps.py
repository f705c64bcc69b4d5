from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.services import ratings  # noqa: F401  (connects the end-of-game receiver)

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    # allauth's account app (e-mail addresses) is "Accounts" in the admin: ours is the players.
    verbose_name = "Players"

    def ready(self) -> None:
        from accounts import signals  # noqa: F401  (connects the superuser receiver)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The platform asks its policy hook before a user plays or chats (games/policy.py);
        # moderation answers it, as each game registers its site.
        from games import policy
        from moderation.sanctions import Sanctions

        policy.register(Sanctions())

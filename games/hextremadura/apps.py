from games.sites import GameAppConfig


class HextremaduraConfig(GameAppConfig):
    name = "games.hextremadura"
    label = "hextremadura"
    verbose_name = "Hextremadura"
    default_auto_field = "django.db.models.BigAutoField"
    default = True  # (GameAppConfig is imported here too)
    site_path = "games.hextremadura.site.SITE"

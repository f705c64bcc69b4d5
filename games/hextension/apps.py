from games.sites import GameAppConfig


class HextensionConfig(GameAppConfig):
    name = "games.hextension"
    label = "hextension"
    verbose_name = "Hextension"
    default = True  # (GameAppConfig is imported here too)
    site_path = "games.hextension.site.SITE"

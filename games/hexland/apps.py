from games.sites import GameAppConfig


class HexlandConfig(GameAppConfig):
    name = "games.hexland"
    label = "hexland"
    verbose_name = "Hexland"
    default = True  # (GameAppConfig is imported here too)
    site_path = "games.hexland.site.SITE"

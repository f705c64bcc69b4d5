"""Hexland on the site: what the platform asks of this game (its rooms come with their own
pages; until then games are created by services and shown on the generic board)."""
from games.sites import GameSite

SITE = GameSite(
    kind="hexland",
    engine_path="games.hexland.engine",
)

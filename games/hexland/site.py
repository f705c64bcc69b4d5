"""Hexland on the site: what the platform asks of this game."""
from games.hexland import forms, services
from games.sites import GameSite

SITE = GameSite(
    kind="hexland",
    engine_path="games.hexland.engine",
    rated=True,
    urls="games.hexland.urls",
    lobby_url_name="hexland_lobby",
    parse_form=forms.parse_move_form,
    config_at_start=services.config_at_start,
    settings_form=forms.SettingsForm,
)

"""Announcing new versions to a game's channel group. Pushes are hints; the database is the truth."""
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def announce_version(game_id: int, version: int) -> None:
    async_to_sync(get_channel_layer().group_send)(group_name(game_id), {"type": "game.version", "version": version})

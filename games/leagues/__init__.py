"""Leagues: Hextension seasons run by organisers (its own app: models, services, standings)."""

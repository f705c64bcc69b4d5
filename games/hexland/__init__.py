"""Hexland, the Catan-style race to 10 points: ``engine/`` (pure Python) and its web slice."""

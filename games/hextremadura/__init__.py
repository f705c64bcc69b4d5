"""Hextremadura, the solo tile-laying puzzle: ``engine/`` (pure Python) and its web slice."""

"""Hextension (Take it Easy by correspondence): ``engine/`` (pure Python) and its web slice."""

"""Hextremadura's words (games/hextremadura/words.py): every English code the engine shows a player
has a translatable name, and in English the site says what the engine says."""
from __future__ import annotations

from django.utils import translation

from games.hextremadura import words
from games.hextremadura.engine import rules
from games.hextremadura.engine.geometry import DIRECTION_NAMES
from games.hextremadura.engine.tiles import ICONS, KINDS, TILES


def test_every_engine_code_has_a_name():
    assert set(words.KIND_NAMES) == set(words.KIND_LETTERS) == set(KINDS)
    assert set(words.ICON_NAMES) == set(words.ICON_LETTERS) == set(ICONS)
    assert set(words.QUEST_NAMES) == set(rules.QUESTS)
    assert {rules.rating(points) for points in range(rules.MAX_SCORE + 1)} == set(words.RATING_NAMES)
    with translation.override("en-gb"):
        assert [words.side_name(side) for side in range(6)] == list(DIRECTION_NAMES)
        assert [words.quest_name(key) for key in rules.QUESTS] == [rules.QUEST_NAMES[key] for key in rules.QUESTS]
        assert words.kind_name("lava") == words.icon_name(None) == words.face_name("<b>") == "unknown"


def test_in_english_objectives_and_requirements_read_as_the_engine_writes_them():
    objectives = requirements = 0
    with translation.override("en-gb"):
        for tile in TILES.values():
            for face in tile.faces.values():
                if face.objective is not None:
                    assert words.objective_phrase(face.objective.to_json()) == face.objective.describe()
                    objectives += 1
                for req in face.requirements:
                    assert words.requirement_phrase(KINDS[req.kind], req.n, req.side) == \
                        f"needs {req.n} {KINDS[req.kind]} at side {req.side} ({DIRECTION_NAMES[req.side]})"
                    requirements += 1
        assert words.objective_phrase({"family": "unknown", "text": "<script>"}) == "an objective"
    assert objectives == 15 and requirements == 30

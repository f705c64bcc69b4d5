"""The API is an app of its own over the platform: games/ never imports it."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_nothing_in_games_imports_the_api():
    hits = []
    for path in (ROOT / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            hits += [f"{path.relative_to(ROOT)}: {name}" for name in names if name == "api" or name.startswith("api.")]
    assert not hits, "games/ imports the API:\n" + "\n".join(hits)

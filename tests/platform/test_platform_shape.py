"""The platform names no game: what differs per game comes from the game's folder (its app and
site entry), so adding a game is one folder and one line in INSTALLED_APPS. Nor does it know the
moderation app: it asks its policy hook (games/policy.py), which moderation answers."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.template.loader import get_template
from django.utils.module_loading import import_string

from games.sites import GameAppConfig, offered_sites

ROOT = Path(settings.BASE_DIR)
GAMES = ROOT / "games"
# The games on the site today, and any registered since: none may be named by the platform.
GAME_NAMES = {"hextension", "hextremadura", "hexland"} | {site.kind for site in offered_sites()}
NAMES_A_GAME = re.compile("|".join(sorted(GAME_NAMES)), re.IGNORECASE)


def _sub_apps() -> list[Path]:
    """Folders of the apps inside games/: the games and the feature apps (leagues)."""
    return [Path(app.path) for app in apps.get_app_configs() if Path(app.path).parent == GAMES]


def platform_files() -> list[Path]:
    """Every text file of the platform: games/ outside the games' and feature apps' folders
    (their migrations hold history, not code that runs), and the platform's templates."""
    inside_an_app = _sub_apps()
    files = []
    for path in sorted(GAMES.rglob("*")):
        parts = path.relative_to(GAMES).parts
        if not path.is_file() or "migrations" in parts or "__pycache__" in parts:
            continue
        if any(folder in path.parents for folder in inside_an_app):
            continue
        files.append(path)
    files += sorted(p for p in (ROOT / "templates" / "games").rglob("*") if p.is_file())
    return files


def test_the_scan_sees_the_platform_and_not_the_games():
    seen = {str(p.relative_to(ROOT)) for p in platform_files()}
    for platform_module in ("games/protocol.py", "games/services/moves.py", "games/templatetags/ratings.py",
                            "templates/games/game.html", "games/sites.py"):
        assert platform_module in seen
    assert not any(name.startswith(("games/hextension/", "games/leagues/", "games/migrations/")) for name in seen)
    assert {p.name for p in _sub_apps()} >= {"hextension", "hextremadura", "hexland", "leagues"}


def test_no_platform_module_names_a_game():
    hits = []
    for path in platform_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            if NAMES_A_GAME.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "platform modules name a game:\n" + "\n".join(hits)


def test_every_offered_game_is_one_folder_whose_app_label_is_its_kind():
    sites = offered_sites()
    assert len(sites) >= 3
    game_apps = [app for app in apps.get_app_configs() if isinstance(app, GameAppConfig)]
    assert sorted(app.label for app in game_apps) == sorted(site.kind for site in sites)
    for site in sites:
        app = apps.get_app_config(site.kind)
        folder = Path(app.path)
        assert isinstance(app, GameAppConfig) and folder.parent == GAMES
        assert import_string(app.site_path) is site  # the app registered exactly this entry
        assert app.name in settings.INSTALLED_APPS  # its one line
        # Everything the entry points at lives in the game's folder.
        engine_file = Path(importlib.import_module(site.engine_path).__file__)
        assert folder in engine_file.parents, f"{site.kind}'s engine is outside games/{folder.name}/"
        if site.urls:
            assert site.urls.startswith(f"{app.name}."), site.urls
        board = Path(get_template(site.board_template).origin.name)
        assert folder in board.parents or board.parent == ROOT / "templates" / "games", board


def imported_modules(path: Path) -> set[str]:
    """Every module a Python file imports (at any depth: inside functions too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.update([node.module] + [f"{node.module}.{alias.name}" for alias in node.names])
    return names


def test_nothing_in_games_imports_moderation():
    """The platform, its games and leagues ask games/policy.py; moderation registers the answers.
    (Migrations are history and are left out.)"""
    hits = []
    for path in sorted(GAMES.rglob("*.py")):
        if "migrations" in path.relative_to(GAMES).parts:
            continue
        hits += [f"{path.relative_to(ROOT)}: {name}" for name in sorted(imported_modules(path))
                 if name == "moderation" or name.startswith("moderation.")]
    assert not hits, "games/ imports moderation:\n" + "\n".join(hits)


def test_the_policy_hook_allows_everything_until_moderation_answers_it():
    from games import policy
    from moderation.sanctions import Sanctions

    allowing = policy.Policy()
    assert allowing.check_may_play(object()) is None and allowing.check_may_chat(object()) is None
    assert allowing.mute_notice(object()) == "" and not allowing.has_blocked(object(), 7)
    assert list(allowing.blocked_by(object())) == []
    assert isinstance(policy.registered(), Sanctions)  # moderation's ready() registered it

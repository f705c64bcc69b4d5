"""Compile the translation catalogues (locale/<code>/LC_MESSAGES/*.po → .mo) with Babel, so a
machine without GNU gettext's msgfmt can still set up the site (`make` runs this).

    python -m hexsite.catalogues [--check]

--check compiles nothing and fails on an entry that is untranslated or fuzzy.
"""
from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def catalogue_files() -> list[Path]:
    """Ours (locale/<code>/…) and our translations of other packages' strings
    (locale/overrides/<code>/…: allauth's German in "du", allauth's and Django's Spanish in "tú";
    docs/i18n.md)."""
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po")) + sorted(LOCALE.glob("overrides/*/LC_MESSAGES/*.po"))


def read(path: Path):
    with path.open("rb") as source:
        return read_po(source, locale=path.parent.parent.name.replace("-", "_"), abort_invalid=True)


def incomplete(path: Path) -> list[str]:
    """The msgids of ``path`` that have no translation, or only a fuzzy one."""
    problems = []
    for message in read(path):
        if not message.id:
            continue  # the header
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy or not all(strings):
            problems.append(message.id if isinstance(message.id, str) else message.id[0])
    return problems


def compile_all() -> int:
    for path in catalogue_files():
        target = path.with_suffix(".mo")
        if target.exists() and target.stat().st_mtime >= path.stat().st_mtime:
            continue
        with target.open("wb") as out:
            write_mo(out, read(path), use_fuzzy=False)
        print(f"compiled {path.relative_to(LOCALE.parent)}")
    return 0


def main(argv: list[str]) -> int:
    if "--check" in argv:
        failed = False
        for path in catalogue_files():
            for msgid in incomplete(path):
                failed = True
                print(f"{path.relative_to(LOCALE.parent)}: not translated: {msgid!r}")
        return 1 if failed else 0
    return compile_all()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

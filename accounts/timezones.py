"""Time zones a player may choose.

The list offered is the tz database's own list of zones for people (zone.tab: one or more per
country, e.g. Europe/Paris, America/Sao_Paulo) plus UTC: no aliases kept for old names
("US/Eastern", "Asia/Calcutta"), no "localtime", "posixrules", "Factory" or Etc/GMT+5 offsets,
which the raw list of available zones holds. A name typed or sent by a browser is accepted when
it is a real zone (browsers still report some old names: Chrome says "Asia/Calcutta"), and
refused otherwise with a message that says what to do."""
from __future__ import annotations

import zoneinfo
from functools import lru_cache
from pathlib import Path

from django.core.exceptions import ValidationError

# Files of the zone directories that are not zones people live in.
NOT_ZONES = frozenset({"localtime", "posixrules", "posix", "right", "Factory"})


def _zone_tab() -> list[str]:
    """Zone names of zone.tab, from the first zone directory (or the tzdata package) that has it."""
    candidates = [Path(folder) / "zone.tab" for folder in zoneinfo.TZPATH]
    try:
        from importlib.resources import files

        candidates.append(Path(str(files("tzdata") / "zoneinfo" / "zone.tab")))
    except (ImportError, ModuleNotFoundError, TypeError):
        pass
    for path in candidates:
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            return [line.split("\t")[2] for line in lines if line and not line.startswith("#")]
    return []


@lru_cache(maxsize=1)
def valid_timezones() -> frozenset[str]:
    """Every real zone name this machine knows."""
    return frozenset(name for name in zoneinfo.available_timezones() if name not in NOT_ZONES and not name.startswith("posix/"))


@lru_cache(maxsize=1)
def common_timezones() -> tuple[str, ...]:
    """The zones offered, sorted; UTC first."""
    known = valid_timezones()
    names = [name for name in _zone_tab() if name in known]
    if not names:  # no zone.tab: the area/city names, less the legacy areas
        legacy = ("Etc/", "US/", "Canada/", "Brazil/", "Chile/", "Mexico/")
        names = [name for name in known if "/" in name and not name.startswith(legacy)]
    return ("UTC", *sorted(set(names) - {"UTC"}))


def validate_timezone(value: str) -> None:
    if value not in valid_timezones():
        raise ValidationError(
            "“%(value)s” is not a time zone we know. Choose one from the list, as Region/City "
            "(for example Europe/Paris or America/New_York), or UTC.",
            code="unknown_timezone",
            params={"value": value},
        )

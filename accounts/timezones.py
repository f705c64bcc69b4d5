"""Time zones a player may choose.

The list offered is the tz database's own list of zones for people (zone.tab: one or more per
country, e.g. Europe/Paris, America/Sao_Paulo) plus UTC: no aliases kept for old names
("US/Eastern", "Asia/Calcutta"), no "localtime", "posixrules", "Factory" or Etc/GMT+5 offsets,
which the raw list of available zones holds. A name typed or sent by a browser is accepted when
it is a real zone (browsers still report some old names: Chrome says "Asia/Calcutta"), and
refused otherwise with a message that says what to do.

The form shows them as a person looks for them (``timezone_choices``): a city with its offset
from UTC today, "Berlin (UTC+01:00)", in groups by region, the most used zones first; the value
sent and stored is still the zone's name, "Europe/Berlin"."""
from __future__ import annotations

import unicodedata
import zoneinfo
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

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
            _("“%(value)s” is not a time zone we know. Choose one from the list, as Region/City "
              "(for example Europe/Paris or America/New_York), or UTC."),
            code="unknown_timezone",
            params={"value": value},
        )


# The zones most players live in, offered first (by offset, west to east, on the page).
COMMON = (
    "UTC", "America/Los_Angeles", "America/Denver", "America/Chicago", "America/Mexico_City",
    "America/New_York", "America/Toronto", "America/Sao_Paulo", "America/Argentina/Buenos_Aires",
    "Europe/London", "Europe/Lisbon", "Africa/Lagos", "Europe/Paris", "Europe/Berlin", "Europe/Madrid",
    "Europe/Rome", "Europe/Amsterdam", "Europe/Warsaw", "Africa/Cairo", "Africa/Johannesburg",
    "Europe/Istanbul", "Europe/Moscow", "Asia/Dubai", "Asia/Kolkata", "Asia/Jakarta", "Asia/Singapore",
    "Asia/Shanghai", "Asia/Seoul", "Asia/Tokyo", "Australia/Sydney", "Pacific/Auckland",
)
COMMON_GROUP = _("Common time zones")
# The first part of a zone's name, as a region's group is headed (in the reader's language; the
# cities themselves keep the tz database's English names).
REGIONS = {
    "Africa": _("Africa"), "America": _("Americas"), "Antarctica": _("Antarctica"), "Arctic": _("Arctic"),
    "Asia": _("Asia"), "Atlantic": _("Atlantic Ocean"), "Australia": _("Australia"), "Europe": _("Europe"),
    "Indian": _("Indian Ocean"), "Pacific": _("Pacific Ocean"),
}
OTHER_GROUP = pgettext_lazy("time zones of no region", "Other")


def offset_text(name: str, now: datetime) -> str:
    """The zone's offset from UTC at ``now``: "UTC+01:00", "UTC-03:00", "UTC+05:45"."""
    offset = now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset()
    minutes = round(offset.total_seconds() / 60)
    sign = "-" if minutes < 0 else "+"
    hours, minutes = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{minutes:02d}"


def place_name(name: str) -> str:
    """The place a zone is named after: "Europe/Berlin" is "Berlin", "America/Argentina/
    Buenos_Aires" is "Buenos Aires, Argentina"."""
    parts = [part.replace("_", " ") for part in name.split("/")]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(reversed(parts[1:]))


def zone_label(name: str, now: datetime) -> str:
    """ "Berlin (UTC+01:00)": what the list shows for a zone at ``now``."""
    return f"{place_name(name)} ({offset_text(name, now)})"


def _sort_key(text: str) -> str:
    """Alphabetical in any of the site's languages: "África" sorts with the A's."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).casefold()


def timezone_choices(now: datetime | None = None, *, extra: str | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """The zones offered, as (group, [(name, label), ...]) for a select's optgroups: the common
    zones first (UTC, then by offset and name), then each region's (by place name). ``extra``, a real
    zone that is not in the list (an old name a browser reported), is offered first."""
    now = now or datetime.now(timezone.utc)
    offered = set(common_timezones())
    common = sorted((name for name in COMMON if name in offered),
                    key=lambda name: (name != "UTC", now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset(), place_name(name)))
    if extra and extra not in offered and extra in valid_timezones():
        common.insert(0, extra)
    # Groups are headed, and sorted, in the active language; "Other" comes last.
    other = str(OTHER_GROUP)
    groups: dict[str, list[str]] = {}
    for name in common_timezones():
        if name != "UTC":
            groups.setdefault(str(REGIONS.get(name.split("/")[0], OTHER_GROUP)), []).append(name)
    choices = [(str(COMMON_GROUP), [(name, zone_label(name, now)) for name in common])]
    for group in sorted(groups, key=lambda g: (g == other, _sort_key(g))):
        names = sorted(groups[group], key=place_name)
        choices.append((group, [(name, zone_label(name, now)) for name in names]))
    return choices


def zone_of(user) -> zoneinfo.ZoneInfo | None:
    """The signed-in ``user``'s own time zone, in which pages and pushes show times (None: the
    site's, UTC, for visitors and for a zone this machine does not know)."""
    name = getattr(user, "timezone", "") if user is not None and getattr(user, "is_authenticated", False) else ""
    if not name:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None

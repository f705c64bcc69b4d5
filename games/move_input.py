"""Turning a submitted form into an engine move, at the edge, before the engine sees it.

A move arrives as a JSON ``move`` field (any game) or as the game's own form fields (its
site's ``parse_form``). Either way ``validate_move`` checks it before the engine sees it:

1. Plain, storable JSON whatever the game: objects with text keys, lists, text, whole numbers
   within ±2**53, finite numbers, booleans and null; no NUL character (PostgreSQL cannot
   store one); at most ``MAX_MOVE_DEPTH`` levels and ``MAX_MOVE_CHARS`` characters.
2. The engine's ``MOVE_SCHEMA`` (JSON Schema, draft 2020-12), when it declares one: the move
   types, their fields and nothing else, whole numbers in range, names from known sets. A
   subschema's ``errorMessage`` (a sentence) is what a player reads when it refuses a value.
   An engine without a schema (``None``) gets step 1 only, and its moves are stored as sent.

A refusal is ``BadMove`` (400) with a sentence naming the field ("q must be a whole number
from -40 to 40"); nothing is written. ``services.submit_move`` checks again, so no caller
can skip it.
"""
from __future__ import annotations

import json
import math
from typing import Any

from django.http import QueryDict
from django.utils import translation
from django.utils.text import get_text_list
from django.utils.translation import gettext as _, gettext_lazy, ngettext
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match

from games.errors import BadMove
from games.protocol import Engine
from games.sites import GameSite, get_site

MAX_MOVE_CHARS = 8_000  # the largest legal move of any game is well under 1,000 characters
MAX_MOVE_DEPTH = 6  # the deepest legal move of any game (a trade offer) is 3 levels deep
MAX_SAFE_INT = 2**53  # what every JSON reader (a browser's too) reads exactly

_UNREADABLE = gettext_lazy("The move could not be read: it must be a JSON object.")


# --- reading ------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise BadMove(_("The move could not be read: %(name)s is not a number JSON allows.") % {"name": name})


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as infinity, which cannot be stored
        raise BadMove(_("The move could not be read: a number in it is far too large."))
    return value


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict:
    move = dict(pairs)
    if len(move) != len(pairs):  # two readers could disagree on which one counts
        raise BadMove(_("The move could not be read: a field appears twice in it."))
    return move


def parse_json_move(data: QueryDict) -> dict:
    text = data.get("move", "")
    if len(text) > MAX_MOVE_CHARS:
        raise BadMove(_("The move could not be read: it is far too long."))
    try:
        move = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float,
                          object_pairs_hook=_object_without_repeats)
    except (TypeError, ValueError, RecursionError):  # ValueError covers numbers of 4,300+ digits
        raise BadMove(_UNREADABLE) from None
    if not isinstance(move, dict):
        raise BadMove(_UNREADABLE)
    return move


def parse_move(site: GameSite, data: QueryDict) -> dict:
    if "move" in data or site.parse_form is None:
        return parse_json_move(data)
    return site.parse_form(data)


def read_move(site: GameSite, data: QueryDict) -> dict:
    """The move a form submits, checked against its game's schema."""
    move = parse_move(site, data)
    validate_move(site.engine, move)
    return move


def parse_version(data: QueryDict) -> int:
    try:
        return int(data.get("version", ""))
    except ValueError:
        raise BadMove(_("The form is missing the game version it was made for; reload the page.")) from None


# --- checking -----------------------------------------------------------------------------


def validate_move(engine: Engine, move: Any) -> None:
    """Refuse (``BadMove``) a move that is not plain storable JSON or not of the engine's schema."""
    if not isinstance(move, dict):
        raise BadMove(_("A move must be a JSON object with a type."))
    check_plain_json(move)
    if engine.MOVE_SCHEMA is not None:
        errors = list(_validator(engine.MOVE_SCHEMA).iter_errors(move))
        if errors:
            # A wrong type first: the other errors follow from it.
            wrong_type = [error for error in errors if list(error.absolute_path) == ["type"]]
            raise BadMove(explain(wrong_type[0] if wrong_type else best_match(errors), _site_words(engine)))


def _site_words(engine: Engine):
    """How the engine's game words a sentence of its schema (``errorMessage``) in the player's
    language: its site's refusals (games/refusals.py)."""
    try:
        return get_site(engine.KIND).readable_refusal
    except (KeyError, AttributeError):  # an engine no site offers (tests, tools)
        from games.refusals import general_refusal

        return general_refusal


def check_plain_json(move: Any) -> None:
    """Step 1 of the module docstring. Iterative, so no nesting can exhaust the stack."""
    pending: list[tuple[Any, tuple]] = [(move, ())]
    chars = 0
    while pending:
        value, path = pending.pop()
        if len(path) >= MAX_MOVE_DEPTH:
            raise BadMove(_("The move is nested too deeply to be a move."))
        if isinstance(value, (dict, list, tuple)) and chars + len(value) > MAX_MOVE_CHARS:
            raise BadMove(_("The move could not be read: it is far too long."))  # before walking a huge one
        if isinstance(value, dict):
            for key in value:
                if not isinstance(key, str):
                    raise BadMove(_("The move could not be read: its field names must be text."))
                chars += _text_chars(key)
            pending.extend((item, (*path, key)) for key, item in value.items())
        elif isinstance(value, (list, tuple)):
            pending.extend((item, (*path, index)) for index, item in enumerate(value))
        elif isinstance(value, str):
            chars += _text_chars(value)
        elif isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, int):
            if abs(value) > MAX_SAFE_INT:
                raise BadMove(_("%(field)s is far too large a number.") % {"field": _field_name(path)})
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise BadMove(_("%(field)s must be a finite number.") % {"field": _field_name(path)})
        else:
            raise BadMove(_("The move could not be read: it must be plain JSON."))
        chars += 1
        if chars > MAX_MOVE_CHARS:
            raise BadMove(_("The move could not be read: it is far too long."))


def _text_chars(text: str) -> int:
    if "\x00" in text:
        raise BadMove(_("The move could not be read: it holds a NUL character."))
    return len(text)


# JSON Schema's "integer" admits 1.0; a whole number here is a JSON integer, as the engines read it.
_StrictValidator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)),
)
_validators: dict[int, tuple[dict, Any]] = {}


def _validator(schema: dict):
    """One compiled validator per schema object (checked once: a broken schema fails loudly)."""
    known = _validators.get(id(schema))
    if known is None or known[0] is not schema:
        _StrictValidator.check_schema(schema)
        known = _validators[id(schema)] = (schema, _StrictValidator(schema))
    return known[1]


# --- messages -----------------------------------------------------------------------------


def explain(error: ValidationError, words=None, subject: str | None = None) -> str:
    """A sentence naming the field, from a schema error. Never echoes a long value back.

    A schema may give its own sentence for a refusal of its keywords (``errorMessage``, as
    ajv-errors reads it): a game words the fields of its forms as a player reads them ("Choose
    at least one card to give."). It is the schema's own: a refusal inside it (a key of a
    mapping, an item of a list) uses that part's sentence, or the generic one. The schema's
    sentences are English: ``words`` (the game site's refusals) puts them in the player's
    language. Field names and values are the move's own, never translated. ``subject`` names the
    whole object when it is not a move (the API's request bodies)."""
    field = _field_name(error.absolute_path, subject)
    schema, value = error.schema, error.instance
    keyword = error.validator
    if isinstance(schema.get("errorMessage"), str):
        return (words or str)(schema["errorMessage"])
    if "propertyNames" in error.schema_path:  # a key of a mapping (the value is the key)
        # Translators: a key of a mapping in a move ('gold' in cards) that is not allowed.
        return _("%(value)s in %(field)s must be %(what)s.") % {"value": _short(value), "field": field,
                                                                   "what": describe(schema)}
    if keyword == "required":
        missing = [name for name in error.validator_value if name not in value]
        what = _what(error, exclude=missing, subject=subject)
        return ngettext("%(what)s needs the field %(fields)s.", "%(what)s needs the fields %(fields)s.",
                        len(missing)) % {"what": what, "fields": _and(missing)}
    if keyword == "additionalProperties":
        extra = sorted(str(key) for key in value if key not in schema.get("properties", {}))
        return ngettext("%(what)s has no field %(fields)s.", "%(what)s has no fields %(fields)s.",
                        len(extra)) % {"what": _what(error, subject=subject), "fields": _and(_short(key) for key in extra)}
    # Translators: %(field)s names a field of a move as a program writes it ("q", "cards.wood"), or is
    # "The move"; %(what)s says what it must be ("a whole number from 0 to 5", "one of …").
    return _("%(field)s must be %(what)s.") % {"field": field, "what": describe(schema)}


def _what(error: ValidationError, exclude=(), subject: str | None = None) -> str:
    """The object an error is about: "A roll move" at the top, else the field's name."""
    if error.absolute_path:
        return _field_name(error.absolute_path)
    if subject:
        return subject
    kind = error.instance.get("type")
    if isinstance(kind, str) and "type" not in exclude and len(kind) <= 24:
        # Translators: a move of the type named ("A roll move"); the type is the move's own word, untranslated.
        return _("A %(type)s move") % {"type": kind}
    return _("A move")


def _english() -> bool:
    return (translation.get_language() or "en").startswith("en")


def describe(schema: dict) -> str:
    """What a value of this schema is, in words: "a whole number from 0 to 5". A schema's own
    ``description`` is English: other languages get the words of its type."""
    if "description" in schema and _english():
        return schema["description"]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        names = [json.dumps(value) for value in schema["enum"]]
        return _("one of %(values)s") % {"values": _or(names)}
    kinds = schema.get("type", [])
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    nullable = "null" in kinds
    if "integer" in kinds:
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return (_("a whole number from %(low)s to %(high)s, or null") if nullable
                    else _("a whole number from %(low)s to %(high)s")) % {"low": low, "high": high}
        if low is not None:
            return (_("a whole number of at least %(low)s, or null") if nullable
                    else _("a whole number of at least %(low)s")) % {"low": low}
        return _("a whole number, or null") if nullable else _("a whole number")
    if "array" in kinds:
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        if low == high:
            return ngettext("a list of %(count)s item", "a list of %(count)s items", low) % {"count": low}
        if high is not None:
            return _("a list of %(low)s to %(high)s items") % {"low": low, "high": high}
        return _("a list of at least %(low)s items") % {"low": low}
    if "object" in kinds:
        low, high = schema.get("minProperties", 0), schema.get("maxProperties")
        if high is not None:
            return _("an object of %(low)s to %(high)s entries") % {"low": low, "high": high}
        return _("an object of at least %(low)s entries") % {"low": low}
    if "string" in kinds:
        return _("text")
    return _("of another kind")


def _field_name(path, subject: str | None = None) -> str:
    name = ""
    for part in path:
        name += f"[{part}]" if isinstance(part, int) else (f".{_short(part, quote=False)}" if name else _short(part, quote=False))
    # Translators: the subject of a sentence about a refused move as a whole ("The move must be …").
    return name or subject or _("The move")


def _short(value: Any, quote: bool = True) -> str:
    text = str(value)
    text = text if len(text) <= 24 else text[:20] + "…"
    return repr(text) if quote else text


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _and(names) -> str:
    names = [str(name) for name in names]
    return get_text_list(names, _("and"))


def _or(names: list[str]) -> str:
    return get_text_list(names, _("or"))

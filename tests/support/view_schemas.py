"""Checking engines' views against their ``VIEW_SCHEMA`` (tests of each engine, and the API's)."""
from __future__ import annotations

import json

from jsonschema import Draft202012Validator

# Names no view schema may describe: what the engines keep hidden from every viewer.
HIDDEN_NAMES = frozenset({"seed", "deck", "deck_order", "queue", "rng", "random", "hands", "pendings"})


def validator(schema: dict) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def problems(check: Draft202012Validator, view: dict) -> list[str]:
    """What the schema finds wrong with ``view`` as it is sent (through JSON: tuples become
    lists, integer keys strings)."""
    sent = json.loads(json.dumps(view))
    return [f"{error.json_path}: {error.message[:300]}" for error in check.iter_errors(sent)]


def property_names(schema) -> set[str]:
    """Every property name the schema describes, at any depth."""
    names: set[str] = set()
    if isinstance(schema, dict):
        names |= set(schema.get("properties", {}))
        for value in schema.values():
            names |= property_names(value)
    elif isinstance(schema, list):
        for value in schema:
            names |= property_names(value)
    return names

"""Model instances from rows of SQL of our own, made as the ORM makes them.

The reads every page, move and push start with (a game with its seats and their users; a move's
lock with its seats) go to PostgreSQL as several statements in one execute, one round trip
(psycopg's client-side binding, Django's default, sends them together). Their SQL is built
once from the models' fields, and their rows become instances here: the fields' database
converters applied (a JSON field's text parsed), ``Model.from_db`` as a queryset calls it.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.db import connection


@dataclass(frozen=True)
class Columns:
    model: type
    attnames: tuple[str, ...]
    converters: tuple[tuple[int, tuple, Any], ...]  # (position, converters, column expression)
    sql: str  # the columns for a SELECT, prefixed with the table's alias

    def instance(self, values) -> Any:
        """A model instance from ``values``, in the order of ``sql``'s columns."""
        if self.converters:
            values = list(values)
            for position, converters, column in self.converters:
                for converter in converters:
                    values[position] = converter(values[position], column, connection)
        return self.model.from_db(connection.alias, self.attnames, values)


@functools.cache
def columns(model: type, alias: str) -> Columns:
    """Every concrete field of ``model``, read from the table aliased ``alias``."""
    fields = model._meta.concrete_fields
    converters = []
    for position, field in enumerate(fields):
        column = field.get_col(alias)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if found:
            converters.append((position, tuple(found), column))
    return Columns(model, tuple(field.attname for field in fields), tuple(converters),
                   ", ".join(f'{alias}."{field.column}"' for field in fields))


def with_seats(game, seats: list) -> None:
    """Leave ``seats`` (with their users set) on ``game`` as ``prefetch_related("seats")`` does:
    ``game.seats.all()`` answers from them, and each seat's ``game`` is ``game``."""
    game_field = type(seats[0])._meta.get_field("game") if seats else None
    for seat in seats:
        game_field.set_cached_value(seat, game)
    held = game.seats.all()
    held._result_cache, held._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": held}

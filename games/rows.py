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

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.signals import post_init, pre_init


@dataclass(frozen=True)
class Columns:
    model: type
    attnames: tuple[str, ...]
    converters: tuple[tuple[int, tuple, Any], ...]  # (position, converters, column expression)
    sql: str  # the columns for a SELECT, prefixed with the table's alias
    plain: bool  # made without Model.__init__ (``_is_plain``)

    def instance(self, values) -> Any:
        """A model instance from ``values``, in the order of ``sql``'s columns."""
        if self.converters:
            values = list(values)
            for position, converters, column in self.converters:
                for converter in converters:
                    values[position] = converter(values[position], column, connection)
        if not self.plain or _has_init_receivers(self.model):
            return self.model.from_db(DEFAULT_DB_ALIAS, self.attnames, values)
        # What Model.__init__ (every field positional) and from_db leave, without their loop of
        # setattr over every field and the two signals' dispatch: a 100-seat game's read makes
        # 200 instances, on every page, move and push.
        new = self.model.__new__(self.model)
        state = ModelState()
        state.adding, state.db = False, DEFAULT_DB_ALIAS
        attributes = new.__dict__
        attributes["_state"] = state
        attributes.update(zip(self.attnames, values))
        return new


def _has_init_receivers(model: type) -> bool:
    if not (pre_init.receivers or post_init.receivers):  # the common case, without the signals' lookup
        return False
    return pre_init.has_listeners(model) or post_init.has_listeners(model)


def _is_plain(model: type, attnames: tuple[str, ...]) -> bool:
    """Can an instance of ``model`` be made by setting its attributes directly? Yes when it keeps
    Django's own ``__init__`` and ``from_db`` and no field's attribute is set through a
    descriptor that does more than store it (a file field's does; a foreign key's ``_id`` only
    forgets a cached related object, which a new instance has not). The init signals are
    checked at each instance, as a receiver may connect later."""
    def stored_as_is(name: str) -> bool:
        attribute = type(getattr(model, name, None))
        return not hasattr(attribute, "__set__") or attribute is ForeignKeyDeferredAttribute

    return (model.__init__ is Model.__init__ and model.from_db.__func__ is Model.from_db.__func__
            and all(stored_as_is(name) for name in attnames))


@functools.cache
def columns(model: type, alias: str, leave_out: tuple[str, ...] = ()) -> Columns:
    """Every concrete field of ``model`` but those named in ``leave_out``, read from the table
    aliased ``alias``. A field left out is deferred, as ``QuerySet.defer`` leaves it: read from
    the database when first asked for."""
    fields = [field for field in model._meta.concrete_fields if field.name not in leave_out]
    converters = []
    for position, field in enumerate(fields):
        column = field.get_col(alias)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if found:
            converters.append((position, tuple(found), column))
    attnames = tuple(field.attname for field in fields)
    return Columns(model, attnames, tuple(converters), ", ".join(f'{alias}."{field.column}"' for field in fields),
                   _is_plain(model, attnames))


def with_seats(game, seats: list) -> None:
    """Leave ``seats`` (with their users set) on ``game`` as ``prefetch_related("seats")`` does:
    ``game.seats.all()`` answers from them, and each seat's ``game`` is ``game``."""
    game_field = type(seats[0])._meta.get_field("game") if seats else None
    for seat in seats:
        game_field.set_cached_value(seat, game)
    held = game.seats.all()
    held._result_cache, held._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": held}

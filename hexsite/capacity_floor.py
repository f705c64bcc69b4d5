"""The capacity floor (issue 48): a bare view behind the same server, middleware and database
role as the site's pages, that inserts one row, commits and answers a few bytes. `make capacity`
(benchmarks/capacity.py) drives it the same way as a move, so every figure it prints has a floor
measured in the same run beside it.

Never part of the production site: the URL exists only while ``HEXSITE_CAPACITY_FLOOR=1`` (set
by the harness alone) and the view answers 404 without it. Its table is not the site's: the
harness creates it, as the owner role, in its throw-away database (``create_table_sql``).
"""
from __future__ import annotations

import os

from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

ENV_VAR = "HEXSITE_CAPACITY_FLOOR"
TABLE = "capacity_floor_row"
PATH = "capacity-floor/"


def enabled() -> bool:
    return os.environ.get(ENV_VAR) == "1"


def create_table_sql(app_role: str | None) -> list[str]:
    """The harness's table, created by the owner; the site's role may insert into it."""
    statements = [f"CREATE TABLE IF NOT EXISTS {TABLE} (id bigserial PRIMARY KEY, "
                  "at timestamptz NOT NULL DEFAULT clock_timestamp())"]
    if app_role:
        from hexsite.dbroles import quote_ident

        statements += [f"GRANT SELECT, INSERT ON {TABLE} TO {quote_ident(app_role)}",
                       f"GRANT USAGE, SELECT ON SEQUENCE {TABLE}_id_seq TO {quote_ident(app_role)}"]
    return statements


@require_POST
def floor(request: HttpRequest) -> HttpResponse:
    """One row inserted and committed; the answer is a few bytes (CSRF-checked like a move)."""
    if not enabled():  # mounted only when on; checked again so an import elsewhere cannot serve it
        raise Http404
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {TABLE} DEFAULT VALUES RETURNING id")  # noqa: S608 (a constant)
        row_id = cursor.fetchone()[0]
    return HttpResponse(f"ok {row_id}", content_type="text/plain")


def urlpatterns() -> list:
    """The floor's URL while the harness has it on, else none."""
    return [path(PATH, floor, name="capacity_floor")] if enabled() else []

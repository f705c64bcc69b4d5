"""Two database roles: one owns the schema and runs migrations, the other is the application's.

The application (every Daphne, Celery worker and beat, and the tests) connects as
``DATABASE_URL``'s role, which is neither a superuser nor the owner of any table. It may read and
write rows, and no more:

- SELECT, INSERT, UPDATE and DELETE on the site's tables, except
- the append-only tables (``APPEND_ONLY_TABLES``: move events and the moderation record), where
  it may only SELECT and INSERT, and ``django_migrations``, which it may only read;
- USAGE and SELECT on the sequences;
- nothing else: no TRUNCATE, REFERENCES or TRIGGER on any table, and, not being the owner, no
  ALTER TABLE (so no ``DISABLE TRIGGER``), no DROP, no CREATE in the schema; not being a
  superuser, it cannot set ``session_replication_role`` (which switches triggers off).

The triggers of games/0002, games/0009 and moderation/0002 stay as a second line: they refuse
UPDATE, DELETE and TRUNCATE of those tables to the owner too (only a superuser, or the owner on
purpose, could switch them off).

``DATABASE_OWNER_URL`` names the owner role (same server and database). When it is set,
``manage.py migrate`` (hexsite/management/commands/migrate.py) connects as the owner, migrates,
then grants DATABASE_URL's role the privileges above (``app_privileges_sql``), and
``ALTER DEFAULT PRIVILEGES`` gives tables the owner creates later the same plain DML until the
next migrate sets them exactly. When it is unset, one role does everything, as before: migrate
connects as DATABASE_URL's role and grants nothing (docs/deployment.md, "Database roles").

The local launcher (hexsite/localservices.py: make run, make test, make load) sets its embedded
PostgreSQL up with two roles, ``OWNER_ROLE`` and ``APP_ROLE``, and exports both URLs.

Only the SQL and the role names are needed without Django (the launcher imports this module);
the helpers that take a Django connection import Django themselves.
"""
from __future__ import annotations

from contextlib import contextmanager

OWNER_ROLE = "hexsite_owner"
APP_ROLE = "hexsite_app"
SCHEMA = "public"
# Rows are only ever added: the application may read and insert, never update or delete.
APPEND_ONLY_TABLES = ("games_moveevent", "moderation_moderationrecord")
# Written by migrate (as the owner) only.
READ_ONLY_TABLES = ("django_migrations",)


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def app_privileges_sql(app_role: str, *, append_only=APPEND_ONLY_TABLES, read_only=READ_ONLY_TABLES,
                       schema: str = SCHEMA) -> list[str]:
    """The statements, run by the owner after migrating, that give the application's role
    exactly its privileges (every earlier grant of the owner's to it is revoked first, so
    running them again sets the same privileges)."""
    app, where = quote_ident(app_role), f"IN SCHEMA {quote_ident(schema)}"
    statements = [
        f"GRANT USAGE ON SCHEMA {quote_ident(schema)} TO {app}",
        f"REVOKE ALL ON ALL TABLES {where} FROM {app}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES {where} TO {app}",
        f"REVOKE ALL ON ALL SEQUENCES {where} FROM {app}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES {where} TO {app}",
        f"ALTER DEFAULT PRIVILEGES {where} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {app}",
        f"ALTER DEFAULT PRIVILEGES {where} GRANT USAGE, SELECT ON SEQUENCES TO {app}",
    ]
    if append_only:
        statements.append(f"REVOKE UPDATE, DELETE ON {', '.join(map(quote_ident, append_only))} FROM {app}")
    if read_only:
        statements.append(f"REVOKE INSERT, UPDATE, DELETE ON {', '.join(map(quote_ident, read_only))} FROM {app}")
    return statements


# --- with Django -----------------------------------------------------------------------------


def owner_database() -> dict | None:
    """DATABASE_OWNER_URL parsed as Django parses DATABASE_URL, or None when it is not set."""
    from django.conf import settings

    url = getattr(settings, "DATABASE_OWNER_URL", "")
    if not url:
        return None
    import dj_database_url

    return dj_database_url.parse(url)


def roles_split() -> bool:
    """Whether the application connects as a role other than the owner's."""
    return owner_database() is not None


def _current_user(connection) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        return cursor.fetchone()[0]


@contextmanager
def as_owner(connection):
    """Within the block, ``connection`` (Django's, of this thread) logs in as the owner role;
    yields the application's role name, or None when DATABASE_OWNER_URL is unset (then nothing
    changes). For migrating, and for creating and dropping test databases: the connection is
    closed on the way in and out, its pool closed on the way in, and the owner's connection
    is a plain one (no pool). Other threads must not open connections meanwhile: they share
    the settings this changes."""
    if getattr(connection, "_hexsite_app_role", None):  # already the owner: nested
        yield connection._hexsite_app_role
        return
    owner = owner_database()
    if owner is None or connection.vendor != "postgresql":
        yield None
        return
    settings_dict = connection.settings_dict
    app_role = settings_dict["USER"] or _current_user(connection)
    keys = ("USER", "PASSWORD", "HOST", "PORT", "OPTIONS")
    saved = {key: settings_dict.get(key) for key in keys}
    connection.close()
    connection.close_pool()
    options = {key: value for key, value in (saved["OPTIONS"] or {}).items() if key != "pool"}
    settings_dict.update(USER=owner["USER"], PASSWORD=owner["PASSWORD"], HOST=owner["HOST"], PORT=owner["PORT"],
                         OPTIONS={**options, **(owner.get("OPTIONS") or {})})
    connection._hexsite_app_role = app_role
    try:
        yield app_role
    finally:
        connection.close()
        connection._hexsite_app_role = None
        settings_dict.update(saved)


def grant_app_privileges(connection, app_role: str) -> list[str]:
    """Run ``app_privileges_sql`` as the owner (``connection`` inside ``as_owner``), for the
    append-only and read-only tables that exist (a migration to an earlier state may lack
    some). Returns the statements run; none when ``app_role`` is the connected role itself."""
    from django.db import transaction

    if app_role == _current_user(connection):
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                       "WHERE n.nspname = %s AND c.relkind IN ('r', 'p')", [SCHEMA])
        present = {row[0] for row in cursor.fetchall()}
    statements = app_privileges_sql(app_role, append_only=[t for t in APPEND_ONLY_TABLES if t in present],
                                    read_only=[t for t in READ_ONLY_TABLES if t in present])
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
    return statements


def owner_connect(connection, **kwargs):
    """A new psycopg connection as the owner to the database ``connection`` is on (the test
    database in tests), or None when DATABASE_OWNER_URL is unset. The caller closes it."""
    import psycopg

    owner = owner_database()
    if owner is None:
        return None
    options = {**(connection.settings_dict.get("OPTIONS") or {}), **(owner.get("OPTIONS") or {})}
    for django_only in ("pool", "isolation_level", "server_side_binding", "assume_role"):
        options.pop(django_only, None)
    params = {"dbname": connection.settings_dict["NAME"], "user": owner["USER"], "password": owner["PASSWORD"],
              "host": owner["HOST"], "port": owner["PORT"], **options, **kwargs}
    return psycopg.connect(**{key: value for key, value in params.items() if value not in (None, "")})

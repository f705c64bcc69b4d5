"""The application's database role cannot bypass the append-only store (issue 30).

An outside review, connected as the application (then a superuser), deleted move events and
moderation records despite their triggers: ``SET LOCAL session_replication_role = replica``
switches triggers off, and so does ``ALTER TABLE … DISABLE TRIGGER USER``. The site now
connects as a role that is neither superuser nor owner (hexsite/dbroles.py): each bypass is
refused here, connected as that role, and UPDATE, DELETE and TRUNCATE of those tables are
refused for want of privilege before any trigger runs. The owner, who migrates, is still
refused by the triggers. The rest of the suite, which runs as the application's role, shows the
site still works with these privileges.
"""
from __future__ import annotations

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction

from games import services
from games.models import MoveEvent
from hexsite import dbroles
from moderation import services as moderation
from moderation.models import ModerationRecord
from tests.support.factories import toy_game
from tests.support.roles import requires_two_roles


def owner_role() -> str:
    return dbroles.owner_database()["USER"]


def one_row_each(make_user, django_user_model):
    """A move event and a moderation record, written by the services as the site writes them."""
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 1}, expected_version=game.version)
    boss = django_user_model.objects.create_superuser("boss", "boss@example.com", "a-long-pass-phrase")
    record = moderation.warn(actor=boss, user=bo, reason="First warning")
    return MoveEvent.objects.get(game=game), record


def refused(sql: str, match: str) -> None:
    """``sql`` fails with ``match``; the test's transaction goes on (a savepoint)."""
    with pytest.raises(DatabaseError, match=match), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)


def fetch(sql: str, params=()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@requires_two_roles
@pytest.mark.django_db
def test_the_application_role_is_neither_superuser_nor_owner_nor_member_of_the_owner():
    [(user, superuser, createdb, createrole, bypassrls, replication)] = fetch(
        "SELECT rolname, rolsuper, rolcreatedb, rolcreaterole, rolbypassrls, rolreplication "
        "FROM pg_roles WHERE rolname = current_user")
    assert user == connection.settings_dict["USER"] != owner_role()
    assert (superuser, createdb, createrole, bypassrls, replication) == (False, False, False, False, False)
    assert fetch("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()") == [
        (owner_role(),)]
    assert fetch("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'") == [(owner_role(),)]
    assert fetch("SELECT DISTINCT pg_get_userbyid(proowner) FROM pg_proc p JOIN pg_namespace n "
                 "ON n.oid = p.pronamespace WHERE n.nspname = 'public'") == [(owner_role(),)]
    assert fetch("SELECT pg_has_role(current_user, %s, 'MEMBER')", [owner_role()]) == [(False,)]
    assert fetch("SELECT has_schema_privilege(current_user, 'public', 'CREATE')") == [(False,)]


@requires_two_roles
@pytest.mark.django_db
def test_the_application_role_has_exactly_its_privileges_on_every_table_and_sequence():
    kinds = ["SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"]
    if connection.pg_version >= 170000:
        kinds.append("MAINTAIN")  # VACUUM, CLUSTER, LOCK TABLE …
    columns = ", ".join(f"has_table_privilege(current_user, c.oid, '{kind}')" for kind in kinds)
    rows = fetch(f"SELECT c.relname, {columns} FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                 "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname")
    granted = {name: {kind for kind, allowed in zip(kinds, flags) if allowed} for name, *flags in rows}
    assert {"games_game", "games_moveevent", "moderation_moderationrecord", "accounts_user"} <= set(granted)
    for table, privileges in granted.items():
        if table in dbroles.APPEND_ONLY_TABLES:
            assert privileges == {"SELECT", "INSERT"}, table
        elif table in dbroles.READ_ONLY_TABLES:
            assert privileges == {"SELECT"}, table
        else:
            assert privileges == {"SELECT", "INSERT", "UPDATE", "DELETE"}, table
    sequences = fetch("SELECT c.relname, has_sequence_privilege(current_user, c.oid, 'USAGE'), "
                      "has_sequence_privilege(current_user, c.oid, 'UPDATE') FROM pg_class c "
                      "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'S'")
    assert sequences and all(usage and not update for _name, usage, update in sequences)


@requires_two_roles
@pytest.mark.django_db
def test_each_bypass_of_the_review_is_refused_and_the_rows_stay(make_user, django_user_model):
    event, record = one_row_each(make_user, django_user_model)
    with connection.cursor() as cursor:
        # Rows written in this test's transaction: check their deferred keys now, or TRUNCATE
        # would be refused for the pending checks before its privileges are looked at.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    tables = ("games_moveevent", "moderation_moderationrecord")
    # The review's two ways to switch the triggers off.
    refused("SET LOCAL session_replication_role = replica", 'permission denied to set parameter "session_replication_role"')
    refused("SET session_replication_role = replica", "permission denied to set parameter")
    for table in tables:
        refused(f"ALTER TABLE {table} DISABLE TRIGGER USER", f"must be owner of table {table}")
        refused(f"ALTER TABLE {table} DISABLE TRIGGER ALL", f"must be owner of table {table}")
    # What they were for: no privilege to change or remove a row, setting or not.
    for table in tables:
        refused(f"DELETE FROM {table}", f"permission denied for table {table}")
        refused(f"UPDATE {table} SET created_at = created_at", f"permission denied for table {table}")
        refused(f"TRUNCATE {table}", f"permission denied for table {table}")
        refused(f"TRUNCATE {table} CASCADE", f"permission denied for table {table}")
    refused("TRUNCATE games_game CASCADE", "permission denied for table games_game")
    refused("TRUNCATE accounts_user CASCADE", "permission denied for table accounts_user")
    with transaction.atomic(), connection.cursor() as cursor:  # the test suite's allowance is no key either
        cursor.execute("SET LOCAL hexsite.allow_truncate = 'on'")
        refused("TRUNCATE games_moveevent", "permission denied for table games_moveevent")
    # Other ways round: the trigger functions, the triggers, the tables' owner, the owner's role.
    refused("CREATE OR REPLACE FUNCTION games_moveevent_append_only() RETURNS trigger "
            "AS $$ BEGIN RETURN OLD; END $$ LANGUAGE plpgsql", "permission denied for schema public|must be owner")
    refused("DROP TRIGGER games_moveevent_no_update_delete ON games_moveevent", "must be owner of")
    refused("DROP TABLE moderation_moderationrecord", "must be owner of table")
    refused("ALTER TABLE games_moveevent RENAME TO games_moveevent_old", "must be owner of table")
    refused(f'SET ROLE "{owner_role()}"', "permission denied to set role")
    refused("ALTER ROLE CURRENT_USER SUPERUSER", "permission denied to alter role")
    refused("CREATE TABLE games_moveevent_copy (id bigint)", "permission denied for schema public")
    assert MoveEvent.objects.filter(pk=event.pk).exists()
    assert ModerationRecord.objects.get(pk=record.pk).reason == "First warning"
    # And the site's own writes go on: another move, another record.
    game = event.game
    game.refresh_from_db()
    services.submit_move(game_id=game.pk, user=game.seats.get(index=1).user, move={"type": "add", "n": 2},
                         expected_version=game.version)
    assert MoveEvent.objects.filter(game=game).count() == 2


@requires_two_roles
@pytest.mark.django_db(transaction=True)
def test_the_triggers_still_refuse_the_owner_and_let_only_the_flush_truncate(make_user, django_user_model):
    """The owner (migrations) may alter the tables, so it is no key for the site; still, the
    triggers refuse it an UPDATE, DELETE or TRUNCATE by mistake. The test suite's flush (as the
    owner, tests/conftest.py) alone passes, with a setting of its own transaction."""
    event, record = one_row_each(make_user, django_user_model)  # committed: the owner sees them
    owner = dbroles.owner_connect(connection)
    try:
        assert owner.execute("SELECT current_user").fetchone() == (owner_role(),)
        for sql, match in [
            ("UPDATE games_moveevent SET kind = kind", "move events are append-only: UPDATE refused"),
            ("DELETE FROM games_moveevent", "move events are append-only: DELETE refused"),
            ("TRUNCATE games_moveevent", "move events are append-only: TRUNCATE refused"),
            ("TRUNCATE games_game CASCADE", "append-only: TRUNCATE refused"),
            ("UPDATE moderation_moderationrecord SET reason = 'x'", "moderation records are append-only: UPDATE refused"),
            ("DELETE FROM moderation_moderationrecord", "moderation records are append-only: DELETE refused"),
            ("TRUNCATE moderation_moderationrecord", "moderation records are append-only: TRUNCATE refused"),
        ]:
            with pytest.raises(psycopg.Error, match=match):
                owner.execute(sql)
            owner.rollback()
        owner.execute("SET LOCAL hexsite.allow_truncate = 'on'")
        owner.execute("TRUNCATE games_moveevent, moderation_moderationrecord")
        assert owner.execute("SELECT count(*) FROM games_moveevent").fetchone() == (0,)
        owner.rollback()
        with pytest.raises(psycopg.Error, match="TRUNCATE refused"):  # the setting went with its transaction
            owner.execute("TRUNCATE games_moveevent")
        owner.rollback()
    finally:
        owner.close()
    assert MoveEvent.objects.filter(pk=event.pk).exists() and ModerationRecord.objects.filter(pk=record.pk).exists()


def test_the_grants_are_the_ones_the_readme_and_the_deployment_guide_give():
    """The README's production section and docs/deployment.md give the grants; they are the
    ones migrate runs."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for document in (root / "README.md", root / "docs" / "deployment.md"):
        text = document.read_text()
        for statement in dbroles.app_privileges_sql("hexsite_app"):
            assert statement.replace('"', "") + ";" in text, (document.name, statement)

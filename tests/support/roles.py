"""The database roles the suite runs as (hexsite/dbroles.py).

`make test` connects as the application's role (DATABASE_URL) and migrates as the owner
(DATABASE_OWNER_URL). Run against a PostgreSQL of one's own with DATABASE_URL alone, one role
does both: the tests below that need two roles are skipped, saying so, and the append-only
tables are refused by their triggers rather than for want of privileges.
"""
import pytest

from hexsite import dbroles

PERMISSION_DENIED = "permission denied for table"

requires_two_roles = pytest.mark.skipif(
    not dbroles.roles_split(),
    reason="DATABASE_OWNER_URL is not set: the suite runs as one role (set it, as make test does, "
           "to test the application's role)")


def app_refusal(trigger_message: str) -> str:
    """What the application's role is told when it changes an append-only table: it lacks the
    privilege (two roles), or else the table's trigger refuses."""
    return PERMISSION_DENIED if dbroles.roles_split() else trigger_message

"""TRUNCATE escapes the row triggers of 0002 (it deletes no row one by one): a statement
trigger refuses it too, so the event store cannot be emptied by mistake.

The one exception is a transaction that turns ``hexsite.allow_truncate`` on: the test suite's
database flush between transactional tests (tests/conftest.py). The site never sets it.
"""
from django.db import migrations

FORBID = """
CREATE OR REPLACE FUNCTION games_moveevent_no_truncate() RETURNS trigger AS $$
BEGIN
    IF coalesce(current_setting('hexsite.allow_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'move events are append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_moveevent_no_truncate
    BEFORE TRUNCATE ON games_moveevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_moveevent_no_truncate();
"""

ALLOW = """
DROP TRIGGER IF EXISTS games_moveevent_no_truncate ON games_moveevent;
DROP FUNCTION IF EXISTS games_moveevent_no_truncate();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0008_chat_messages")]
    operations = [migrations.RunSQL(FORBID, ALLOW)]

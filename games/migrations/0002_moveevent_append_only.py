"""The database itself refuses to change or remove a move event."""
from django.db import migrations

FORBID = """
CREATE OR REPLACE FUNCTION games_moveevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'move events are append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_moveevent_no_update_delete
    BEFORE UPDATE OR DELETE ON games_moveevent
    FOR EACH ROW EXECUTE FUNCTION games_moveevent_append_only();
"""

ALLOW = """
DROP TRIGGER IF EXISTS games_moveevent_no_update_delete ON games_moveevent;
DROP FUNCTION IF EXISTS games_moveevent_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunSQL(FORBID, ALLOW)]

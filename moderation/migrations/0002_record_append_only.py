"""The database itself refuses to change or remove a moderation record, as it does move events
(games/0002 and 0009): UPDATE and DELETE row by row, TRUNCATE by statement. The test suite's
flush alone passes, with ``hexsite.allow_truncate`` on in its own transaction."""
from django.db import migrations

FORBID = """
CREATE OR REPLACE FUNCTION moderation_record_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND coalesce(current_setting('hexsite.allow_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'moderation records are append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER moderation_record_no_update_delete
    BEFORE UPDATE OR DELETE ON moderation_moderationrecord
    FOR EACH ROW EXECUTE FUNCTION moderation_record_append_only();

CREATE TRIGGER moderation_record_no_truncate
    BEFORE TRUNCATE ON moderation_moderationrecord
    FOR EACH STATEMENT EXECUTE FUNCTION moderation_record_append_only();
"""

ALLOW = """
DROP TRIGGER IF EXISTS moderation_record_no_update_delete ON moderation_moderationrecord;
DROP TRIGGER IF EXISTS moderation_record_no_truncate ON moderation_moderationrecord;
DROP FUNCTION IF EXISTS moderation_record_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("moderation", "0001_initial")]
    operations = [migrations.RunSQL(FORBID, ALLOW)]

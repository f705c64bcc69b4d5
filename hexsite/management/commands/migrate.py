"""``manage.py migrate`` as the owner role when DATABASE_OWNER_URL is set, then the application's
role (DATABASE_URL's) granted exactly its privileges (hexsite/dbroles.py). Unset: Django's
migrate as it is, as DATABASE_URL's role, granting nothing."""
from django.core.management.commands import migrate
from django.db import DEFAULT_DB_ALIAS, connections

from hexsite import dbroles


class Command(migrate.Command):
    help = (migrate.Command.help + " With DATABASE_OWNER_URL set, connects as that role and then grants "
            "DATABASE_URL's role its privileges.")

    def handle(self, *args, **options):
        if options["database"] != DEFAULT_DB_ALIAS:
            return super().handle(*args, **options)
        connection = connections[options["database"]]
        with dbroles.as_owner(connection) as app_role:
            super().handle(*args, **options)
            if app_role and not options.get("plan") and not options.get("check_unapplied"):
                dbroles.grant_app_privileges(connection, app_role)
                if options["verbosity"] >= 1:
                    self.stdout.write(f"  Granted {app_role} its privileges (hexsite/dbroles.py).")

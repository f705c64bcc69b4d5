"""``manage.py oauth_app NAME --redirect-uri URI [--redirect-uri URI2] [--confidential] [--owner USER]``:
register a third-party app (OAuth2, authorization code with PKCE) and print its client ID, and
for a confidential app its secret, shown this once (the site keeps it hashed)."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import Application

from api.oauth_admin import redirect_uri_problem


class Command(BaseCommand):
    help = "Register an OAuth2 app (authorization code with PKCE) and print its client ID (and secret)."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--redirect-uri", action="append", required=True, dest="redirect_uris",
                            help="https, or http on 127.0.0.1 / [::1]; repeat for several")
        parser.add_argument("--confidential", action="store_true",
                            help="a server that keeps a secret (default: public, e.g. a native app or a bot)")
        parser.add_argument("--owner", default="", help="the username of the app's maker (optional)")

    def handle(self, *args, name, redirect_uris, confidential, owner, **options):
        problems = [problem for problem in map(redirect_uri_problem, redirect_uris) if problem]
        if problems:
            raise CommandError(" ".join(problems))
        user = None
        if owner:
            user = get_user_model().objects.filter(username=owner).first()
            if user is None:
                raise CommandError(f"There is no user {owner!r}.")
        secret = generate_client_secret() if confidential else ""
        app = Application.objects.create(
            name=name, user=user, redirect_uris=" ".join(redirect_uris), client_secret=secret,
            client_type=Application.CLIENT_CONFIDENTIAL if confidential else Application.CLIENT_PUBLIC,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE)
        self.stdout.write(f"client_id: {app.client_id}")
        if confidential:
            self.stdout.write(f"client_secret: {secret}")

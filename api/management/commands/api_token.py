"""``manage.py api_token <username> [--scopes read,play] [--name N]``: a new personal token for an
existing user, printed alone on the last line (for operators, scripts and tests)."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, no_translations

from api import tokens


class Command(BaseCommand):
    help = "Make a personal API token for an existing user and print it (alone on the last line)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--scopes", default="", help="comma-separated: read, play, bot, organise "
                                                         "(default: every scope but organise)")
        parser.add_argument("--name", default="manage.py api_token")

    @no_translations  # the operator's terminal: in English, as the rest of what it prints
    def handle(self, *args, username, scopes, name, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user {username!r}.")
        try:
            token, secret = tokens.create_token(owner=user, name=name, scopes=tokens.parse_scopes(scopes))
        except tokens.TokenRefused as refusal:
            raise CommandError(str(refusal)) from None
        self.stderr.write(f"Token {token.prefix}… for {user.username}, scopes {', '.join(token.scopes)}.")
        self.stdout.write(secret)

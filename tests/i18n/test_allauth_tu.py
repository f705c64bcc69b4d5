"""Spanish speaks to the player with "tú" on every page and in every e-mail (docs/glossary.md),
the account's too (issue 45, item 9): allauth's own Spanish, and Django's in the form errors and
password rules the account pages show, say "usted" in some of their strings, and
locale/overrides/es says each of those in "tú" (docs/i18n.md, "Other packages' words"). The
German twin is test_allauth_du.py; the pages and e-mails read here are the ones it reads."""
from __future__ import annotations

import re
from pathlib import Path

import django
import pytest
from babel.messages.pofile import read_po
from django.utils import translation

from hexsite import catalogues
from tests.i18n.test_allauth_du import ALLAUTH, read_account_pages, rendered_emails_and_messages, strings

# The forms that address the reader as "usted" in allauth's and Django's Spanish. Spanish drops
# the subject, so "usted" itself is rare: the possessive "su/sus" before one of the reader's
# things, "le" as "to you", the third-person verbs they use for "you", and their formal
# imperatives. Each is a phrase of theirs, none is one of our tú forms ("has", "puedes",
# "introduce", "tu"), and someone else's "su" ("cada una muestra su diferencia") is not matched.
USTED = re.compile(r"""\b(?:
    usted(?:es)?
  | sus?\s(?:cuentas?|contraseña|correo|dirección|direcciones|usuario|códigos?|navegador|bandeja|carpeta
           |dispositivo|aplicación|número|verificación)
  | le\s(?:hemos|enviaremos|permite|permitirá|pedimos)
  | (?<!se\s)(?:ha|haya)\s(?:olvidado|iniciado|cerrado|confirmado|indicado|creado|recibido|solicitado|decidido
                            |verificado)
  | está\s(?:recibiendo|a\spunto|seguro) | (?:ya|si|actualmente\sno)\stiene\s(?:una|alguna|cuentas)
  | puede\s(?:eliminar|añadir|activar|desconectar|guardar|iniciar|registrarse|ignorar)
  | desea | recibirá | debería\sañadir | debe\sescribir | se\sdispone | no\s(?:reconoce|recibe|ve)
  | confirme | haga | introduzca | introdúzcalo | inicie\ssesión | escriba | utilice | use | inténtelo | intente
  | escanee | ingrese | complete | proporcione | póngase | vuelva\sa | compruebe | siga\sel | verifique
  | solicite | regístrese | emita | contáctenos | tome\sinmediatamente | escoja | envíe\suna | introduza | elimínelos
)\b""", re.I | re.X)
OVERRIDES = catalogues.LOCALE / "overrides" / "es" / "LC_MESSAGES" / "django.po"
DJANGO = Path(django.__file__).parent
# Their Spanish catalogues with strings a player meets (Django's admin is left as it is).
THEIRS = {"allauth": ALLAUTH / "locale" / "es" / "LC_MESSAGES" / "django.po",
          "Django": DJANGO / "conf" / "locale" / "es" / "LC_MESSAGES" / "django.po",
          "Django's auth": DJANGO / "contrib" / "auth" / "locale" / "es" / "LC_MESSAGES" / "django.po"}


@pytest.fixture(autouse=True)
def _language_left_as_it_was():
    """The test client's requests activate their reader's language in this thread and leave it
    active: the tests after these would draw in Spanish."""
    yield
    translation.deactivate()


def usted_in(text: str) -> str | None:
    """The first usted phrase of ``text``, with a little of what surrounds it; None if there is none."""
    found = USTED.search(text)
    return found and f"{found.group(0)!r} in …{text[max(0, found.start() - 80):found.end() + 80]}…"


def catalogue(path):
    with path.open("rb") as source:
        return read_po(source, locale="es")


def test_the_markers_find_usted_and_leave_tu():
    # The tests below are only as good as USTED: the first are allauth's own Spanish.
    for polite in ("No puede eliminar su correo electrónico principal.", "¿Ha olvidado su contraseña?",
                   "Si ha sido usted, puede registrarse", "Haga clic en el siguiente enlace",
                   "Introduzca su contraseña:", "¿Ya tiene una cuenta? Por favor inicie sesión.",
                   "Introduzca una dirección de correo electrónico válida.",
                   "Su contraseña no puede ser completamente numérica."):
        assert USTED.search(polite), polite
    for familiar in ("No puedes eliminar tu correo electrónico principal.", "¿Has olvidado tu contraseña?",
                     "Haz clic en el siguiente enlace", "Introduce tu contraseña:", "Se ha cambiado tu contraseña.",
                     "Introduce una dirección de correo electrónico válida.",
                     "Cada una muestra su diferencia con UTC hoy.", "Sao Tome (UTC+00:00)"):
        assert not USTED.search(familiar), familiar


@pytest.mark.parametrize("package", THEIRS)
def test_every_string_of_theirs_in_usted_has_our_translation_in_tu(package):
    ours = catalogue(OVERRIDES)
    missing, polite = [], []
    for message in catalogue(THEIRS[package]):
        if not message.id or not any(USTED.search(text or "") for text in strings(message)):
            continue
        override = ours.get(message.id, context=message.context)
        if override is None:
            missing.append(message.id)
        elif any(USTED.search(text or "") for text in strings(override)):
            polite.append(strings(override)[0])
    where = OVERRIDES.relative_to(catalogues.LOCALE.parent)
    assert not missing, f"{package}'s Spanish says usted here; add them to {where}: {missing}"
    assert not polite, polite


@pytest.mark.django_db
def test_every_account_email_and_message_is_written_in_tu(make_user):
    user = make_user("tomas", language="es")
    found = {name: usted_in(text) for name, text in rendered_emails_and_messages(user, "es") if usted_in(text)}
    assert not found, found


@pytest.mark.django_db
def test_the_account_pages_are_written_in_tu(client, make_user):
    user = make_user("tomas", language="es")
    found = {name: usted_in(text) for name, text in read_account_pages(client, user, "es") if usted_in(text)}
    assert not found, found

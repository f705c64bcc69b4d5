from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.timezones import timezone_choices, validate_timezone


class TimezoneSelect(forms.Select):
    """The time zones as a person looks for them (accounts/timezones.py): "Berlin (UTC+01:00)"
    in groups by region, the common ones first; the value is the zone's name. A native select:
    it works without JavaScript (typing a city's first letters jumps to it). static/js/
    timezone.js, loaded by the widget itself (so no page has to remember it), adds a search box
    that filters the list, and fills a field that has no zone yet (sign-up) with the browser's."""

    template_name = "accounts/widgets/timezone_select.html"

    def __init__(self, attrs=None):
        super().__init__({"data-timezone": "", **(attrs or {})})

    def get_context(self, name, value, attrs):
        # The offsets are today's: the choices are made when the field is drawn.
        self.choices = timezone_choices(extra=value if isinstance(value, str) else None)
        context = super().get_context(name, value, attrs)
        if not value:
            context["widget"]["attrs"]["data-detect-timezone"] = ""
        return context


class TimezoneField(forms.CharField):
    """A zone's name, checked against the tz database (validate_timezone): the list's values,
    or an old name a browser may report."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Time zone"))
        kwargs.setdefault("help_text", _("Deadlines are shown in this time zone: choose the city nearest you. "
                                         "Each shows its offset from UTC today."))
        super().__init__(max_length=64, widget=TimezoneSelect(), validators=[validate_timezone], **kwargs)

    def widget_attrs(self, widget):
        return {}  # no maxlength on a select

    def to_python(self, value):
        value = super().to_python(value).strip().replace(" ", "_")
        return value


class ProfileForm(forms.ModelForm):
    timezone = TimezoneField()

    class Meta:
        model = User
        fields = ["display_name", "timezone", "email_notifications", "language"]
        labels = {
            "display_name": _("Display name"),
            "email_notifications": _("E-mail notifications"),
            "language": _("Language"),
        }
        help_texts = {
            "display_name": _("Shown to other players. Leave empty to use your username."),
            "language": _("The language of the site's pages and of the e-mails it sends you. Left empty, the pages "
                          "follow your browser's language and e-mails are in English."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each language by its own name (settings.LANGUAGES); empty: no choice saved.
        self.fields["language"].choices = [("", _("As my browser asks")), *settings.LANGUAGES]


class SignupForm(forms.Form):
    """Extra fields of allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS): the time zone, set to
    the browser's by static/js/timezone.js; UTC when none is sent."""

    timezone = TimezoneField(required=False)

    def clean_timezone(self):
        return self.cleaned_data["timezone"] or "UTC"

    def signup(self, request, user):
        # The language the sign-up page was shown in becomes the player's (e-mails included).
        user.timezone = self.cleaned_data["timezone"]
        user.language = translation.get_supported_language_variant(translation.get_language())
        user.save(update_fields=["timezone", "language"])

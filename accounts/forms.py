from django import forms
from django.utils.html import format_html, format_html_join

from accounts.models import User
from accounts.timezones import common_timezones, validate_timezone


class TimezoneInput(forms.TextInput):
    """A text field searched through a datalist of the common zones (typing "par" finds
    Europe/Paris). With ``detect``, static/js/timezone.js fills an empty field with the
    browser's zone."""

    def __init__(self, *, detect: bool = False):
        attrs = {"autocomplete": "off", "spellcheck": "false", "placeholder": "Region/City, e.g. Europe/Paris"}
        if detect:
            attrs["data-detect-timezone"] = ""
        super().__init__(attrs)

    def render(self, name, value, attrs=None, renderer=None):
        attrs = dict(attrs or {})
        list_id = f"{attrs.get('id') or 'id_' + name}-zones"
        attrs["list"] = list_id
        options = format_html_join("", '<option value="{}"></option>', ((zone,) for zone in common_timezones()))
        return format_html('{}<datalist id="{}">{}</datalist>', super().render(name, value, attrs, renderer), list_id, options)


class TimezoneField(forms.CharField):
    def __init__(self, *, detect: bool = False, **kwargs):
        kwargs.setdefault("label", "Time zone")
        kwargs.setdefault("help_text", "Deadlines are shown in this time zone. Type to search, e.g. “Paris” or “New York”.")
        super().__init__(max_length=64, widget=TimezoneInput(detect=detect), validators=[validate_timezone], **kwargs)

    def to_python(self, value):
        value = super().to_python(value).strip().replace(" ", "_")
        return value


class ProfileForm(forms.ModelForm):
    timezone = TimezoneField()

    class Meta:
        model = User
        fields = ["display_name", "timezone", "email_notifications"]
        help_texts = {
            "display_name": "Shown to other players. Leave empty to use your username.",
        }


class SignupForm(forms.Form):
    """Extra fields of allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS): the time zone, filled
    with the browser's by static/js/timezone.js; UTC when left empty."""

    timezone = TimezoneField(detect=True, required=False)

    def clean_timezone(self):
        return self.cleaned_data["timezone"] or "UTC"

    def signup(self, request, user):
        user.timezone = self.cleaned_data["timezone"]
        user.save(update_fields=["timezone"])

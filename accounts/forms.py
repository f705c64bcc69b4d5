from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "timezone", "email_notifications"]
        help_texts = {
            "display_name": "Shown to other players. Leave empty to use your username.",
            "timezone": "Deadlines are shown in this time zone.",
        }

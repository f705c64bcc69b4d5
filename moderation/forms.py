from django import forms
from django.forms.utils import ErrorDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from moderation.models import Report
from moderation.services import MAX_DAYS, MAX_REPORT_CHARS


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("Reason"), choices=Report.Reason.choices, widget=forms.RadioSelect)
    text = forms.CharField(label=_("What happened"), required=False, max_length=MAX_REPORT_CHARS,
                           widget=forms.Textarea(attrs={"rows": 5, "maxlength": MAX_REPORT_CHARS}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["text"].help_text = gettext("At most %(max)s characters. Only staff read it.") % {
            "max": MAX_REPORT_CHARS}


class ActionForm(forms.Form):
    """A moderator's action on a report or a user, always with a reason."""

    ACTIONS = [
        ("dismiss", _("Dismiss the report (no action)")),
        ("warn", _("Warn")),
        ("mute", _("Mute in chat for N days")),
        ("play_ban", _("Ban from play for N days")),
        ("suspend", _("Suspend the account for N days")),
        ("close", _("Close the account")),
        ("rename", _("Change the display name")),
        ("hide_message", _("Hide the reported chat message")),
    ]
    action = forms.ChoiceField(label=_("Action"), choices=ACTIONS)
    days = forms.IntegerField(label=_("Days"), required=False, min_value=1, max_value=MAX_DAYS,
                              help_text=_("For a mute, a play ban or a suspension. A play ban left empty takes the "
                                          "escalating default."))
    new_name = forms.CharField(required=False, max_length=40, label=_("New display name"),
                               help_text=_("For a rename; empty shows the username."))
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000,
                             help_text=_("Recorded; the user is told it where the action concerns them."))

    def __init__(self, *args, actions=None, **kwargs):
        super().__init__(*args, **kwargs)
        if actions is not None:
            self.fields["action"].choices = [(key, label) for key, label in self.ACTIONS if key in actions]

    def refuse(self, message: str) -> None:
        """Show this refusal alone (bound or not): nothing on the page may be applied."""
        self._errors, self.cleaned_data = ErrorDict(), {}
        self.add_error(None, message)

    def clean(self):
        data = super().clean()
        if data.get("action") in ("mute", "suspend") and not data.get("days"):
            self.add_error("days", _("Give the number of days."))
        return data


class ReasonForm(forms.Form):
    """The reason of a bulk action (the changelist's intermediate page)."""

    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)


class AdjudicationForm(forms.Form):
    decision = forms.ChoiceField(label=_("Decision"), choices=[("abort", _("Abort the game (no result, no ratings)")),
                                                               ("result", _("End the game with these scores"))])
    scores = forms.CharField(label=_("Scores"), required=False,
                             help_text=_("One whole number per seat, in seat order, comma-separated (higher is "
                                         "better)."))
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    def clean_scores(self):
        raw = self.cleaned_data.get("scores", "").strip()
        if not raw:
            return []
        try:
            return [int(part) for part in raw.split(",")]
        except ValueError:
            raise forms.ValidationError(_("Write whole numbers separated by commas.")) from None

    def clean(self):
        data = super().clean()
        if data.get("decision") == "result" and not data.get("scores"):
            self.add_error("scores", _("Give one score per seat."))
        return data

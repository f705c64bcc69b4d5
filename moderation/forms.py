from django import forms
from django.forms.utils import ErrorDict

from moderation.models import Report
from moderation.services import MAX_DAYS, MAX_REPORT_CHARS


class ReportForm(forms.Form):
    reason = forms.ChoiceField(choices=Report.Reason.choices, widget=forms.RadioSelect)
    text = forms.CharField(label="What happened", required=False, max_length=MAX_REPORT_CHARS,
                           widget=forms.Textarea(attrs={"rows": 5, "maxlength": MAX_REPORT_CHARS}),
                           help_text=f"At most {MAX_REPORT_CHARS} characters. Only staff read it.")


class ActionForm(forms.Form):
    """A moderator's action on a report or a user, always with a reason."""

    ACTIONS = [
        ("dismiss", "Dismiss the report (no action)"),
        ("warn", "Warn"),
        ("mute", "Mute in chat for N days"),
        ("play_ban", "Ban from play for N days"),
        ("suspend", "Suspend the account for N days"),
        ("close", "Close the account"),
        ("rename", "Change the display name"),
        ("hide_message", "Hide the reported chat message"),
    ]
    action = forms.ChoiceField(choices=ACTIONS)
    days = forms.IntegerField(required=False, min_value=1, max_value=MAX_DAYS,
                              help_text="For a mute, a play ban or a suspension. A play ban left empty takes the "
                                        "escalating default.")
    new_name = forms.CharField(required=False, max_length=40, label="New display name",
                               help_text="For a rename; empty shows the username.")
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000,
                             help_text="Recorded; the user is told it where the action concerns them.")

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
            self.add_error("days", "Give the number of days.")
        return data


class ReasonForm(forms.Form):
    """The reason of a bulk action (the changelist's intermediate page)."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)


class AdjudicationForm(forms.Form):
    decision = forms.ChoiceField(choices=[("abort", "Abort the game (no result, no ratings)"),
                                          ("result", "End the game with these scores")])
    scores = forms.CharField(required=False, help_text="One whole number per seat, in seat order, comma-separated "
                                                       "(higher is better).")
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    def clean_scores(self):
        raw = self.cleaned_data.get("scores", "").strip()
        if not raw:
            return []
        try:
            return [int(part) for part in raw.split(",")]
        except ValueError:
            raise forms.ValidationError("Write whole numbers separated by commas.") from None

    def clean(self):
        data = super().clean()
        if data.get("decision") == "result" and not data.get("scores"):
            self.add_error("scores", "Give one score per seat.")
        return data

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import services
from accounts.forms import ProfileForm
from accounts.models import User
from games import selectors


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.update_profile(request.user, **form.cleaned_data)
        messages.success(request, _("Your profile has been saved."))
        return redirect("profile")
    context = {"form": form, "player": request.user, **_player_sections(request.user)}
    return render(request, "accounts/profile.html", context, status=400 if form.errors else 200)


@login_required
def player(request, username: str):
    if "\x00" in username:  # no name holds one, and PostgreSQL refuses to compare it
        raise Http404("No such player.")
    person = get_object_or_404(User, username=username, is_active=True)
    return render(request, "accounts/player.html", {"player": person, **_player_sections(person)})


def _player_sections(person: User) -> dict:
    return {"game_sections": selectors.profile_sections(person)}


@require_POST
def set_language(request):
    """The footer's language switcher: Django's own view (the cookie, back to the page) and,
    for a signed-in player, the choice saved for their pages and e-mails."""
    response = django_set_language(request)
    if request.user.is_authenticated:
        services.save_language(request.user, request.POST.get("language", ""))
    return response

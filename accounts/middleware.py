from django.utils import timezone, translation

from accounts.timezones import zone_of


class UserTimezoneMiddleware:
    """Show times in the signed-in user's own time zone (the live page's sockets do the same:
    games/consumers.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = zone_of(getattr(request, "user", None))
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        return self.get_response(request)


class UserLanguageMiddleware:
    """Speak the signed-in player's saved language (User.language), whatever the browser asks
    for; a player who never chose keeps LocaleMiddleware's pick (cookie, then Accept-Language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)

import zoneinfo

from django.utils import timezone, translation


class UserTimezoneMiddleware:
    """Show times in the signed-in user's own time zone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.timezone:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.timezone))
            except zoneinfo.ZoneInfoNotFoundError:
                timezone.deactivate()
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

from django.conf import settings

from games.sites import offered_sites


def game_sites(request) -> dict:
    """The games offered on the site, for menus: each with its title and lobby's URL name."""
    return {"game_sites": [site for site in offered_sites() if site.lobby_url_name]}


def live_socket_port(request) -> dict:
    """The port game pages open their socket on, when the sockets have processes of their own."""
    return {"live_socket_port": settings.LIVE_SOCKET_PORT}

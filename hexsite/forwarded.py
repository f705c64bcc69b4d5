"""The client's address behind a proxy, for the pages served by gunicorn.

Daphne rewrites the client's address from ``X-Forwarded-For`` itself (``--proxy-headers``);
gunicorn leaves ``REMOTE_ADDR`` as the proxy's. With ``TRUSTED_PROXY_HOPS`` = N (the proxies in
front of the site, each appending the address it received from), the client is the N-th
address from the right of ``X-Forwarded-For``: what the outermost trusted proxy saw. Addresses
further left were written by the client and are ignored. 0 (the default): no proxy is trusted
and the header is ignored, so a client cannot choose its own address (allauth's rate limits and
the refused-request log lines count by ``REMOTE_ADDR``).
"""
from __future__ import annotations

from django.conf import settings


class ForwardedClientAddressMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.hops = int(getattr(settings, "TRUSTED_PROXY_HOPS", 0) or 0)

    def __call__(self, request):
        if self.hops:
            forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
            if len(forwarded) >= self.hops:
                request.META["REMOTE_ADDR"] = forwarded[-self.hops]
        return self.get_response(request)

"""Behind TRUSTED_PROXY_HOPS proxies a request's client is the address the outermost trusted
proxy saw; with none trusted a client cannot choose its address with a header."""
import pytest
from django.test import RequestFactory, override_settings

from hexsite.forwarded import ForwardedClientAddressMiddleware


def client_address(hops: int, forwarded: str | None, remote: str = "10.0.0.2") -> str:
    seen = {}
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    request = RequestFactory().get("/", REMOTE_ADDR=remote, **headers)
    with override_settings(TRUSTED_PROXY_HOPS=hops):
        ForwardedClientAddressMiddleware(lambda r: seen.setdefault("addr", r.META["REMOTE_ADDR"]))(request)
    return seen["addr"]


@pytest.mark.parametrize(("hops", "forwarded", "client"), [
    (0, "203.0.113.9", "10.0.0.2"),                  # no proxy trusted: the header is ignored
    (1, "203.0.113.9", "203.0.113.9"),               # one proxy: what it saw
    (1, "6.6.6.6, 203.0.113.9", "203.0.113.9"),      # a client's own entry on the left is ignored
    (2, "6.6.6.6, 203.0.113.9, 10.0.0.7", "203.0.113.9"),
    (2, "203.0.113.9", "10.0.0.2"),                  # fewer entries than proxies: left as it is
    (1, None, "10.0.0.2"),
])
def test_the_client_is_what_the_outermost_trusted_proxy_saw(hops, forwarded, client):
    assert client_address(hops, forwarded) == client

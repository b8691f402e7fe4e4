"""The SSRF guard in every notation (README, "Webhooks", "No SSRF"; issue #22, "SSRF guard in every notation").

Given the strict default (no ``WEBHOOK_ALLOWED_NETWORKS``), an address a webhook may not reach is refused however
it is written: as an IPv6 transition address carrying it (NAT64, 6to4, Teredo, IPv4-compatible, -mapped,
-translated), or behind an authority that URL parsers read differently (a backslash, two ``@``, a ``%`` in the
host). It is refused at registration (400) and again at delivery (the attempt fails without a request).
"""

from __future__ import annotations

import ipaddress

import pytest

from palace_api.errors import ApplicationError
from tests.games.api.helpers import assert_error
from webhooks.models import Attempt, Endpoint, Message
from webhooks.services.delivery import message_deliver
from webhooks.services.endpoints import endpoint_ping
from webhooks.services.secret_box import seal
from webhooks.services.url_guard import FORBIDDEN_URL, INVALID_URL, check_url, embedded_ipv4

pytestmark = pytest.mark.django_db

WEBHOOKS = "/api/v1/me/webhooks/"

REFUSED = [
    # NAT64 (64:ff9b::/96, RFC 6052) of loopback and of the metadata address; local-use NAT64 (RFC 8215).
    ("http://[64:ff9b::7f00:1]/", FORBIDDEN_URL),
    ("http://[64:ff9b::a9fe:a9fe]/", FORBIDDEN_URL),
    ("http://[64:ff9b::127.0.0.1]/", FORBIDDEN_URL),
    ("http://[64:ff9b:1::7f00:1]/", FORBIDDEN_URL),
    ("http://[64:ff9b:1::808:808]/", FORBIDDEN_URL),
    # 6to4 (2002::/16): the IPv4 address in bits 16-47.
    ("http://[2002:7f00:1::]/", FORBIDDEN_URL),
    ("http://[2002:a9fe:a9fe::]/", FORBIDDEN_URL),
    ("http://[2002:a00:1::1]/", FORBIDDEN_URL),
    # IPv4-compatible (::/96, deprecated), -mapped and -translated (SIIT).
    ("http://[::127.0.0.1]/", FORBIDDEN_URL),
    ("http://[::a9fe:a9fe]/", FORBIDDEN_URL),
    ("http://[::ffff:169.254.169.254]/", FORBIDDEN_URL),
    ("http://[::ffff:0:7f00:1]/", FORBIDDEN_URL),
    # Teredo (2001::/32): client 127.0.0.1 (80ff:fffe XOR ffff:ffff), server 65.54.227.120.
    ("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", FORBIDDEN_URL),
    # Site-local, which Python's is_global takes for global.
    ("http://[fec0::1]/", FORBIDDEN_URL),
    # Authorities URL parsers read differently.
    ("http://127.0.0.1\\@1.1.1.1/", INVALID_URL),
    ("http://1.1.1.1\\@127.0.0.1/", INVALID_URL),
    ("http://93.184.216.34/a\\b", INVALID_URL),
    ("http://a@b@93.184.216.34/", INVALID_URL),
    ("http://%31%32%37.0.0.1/", INVALID_URL),
    ("http://[fe80::1%25eth0]/", INVALID_URL),
    ("http://93.184.216.34:0/", INVALID_URL),
    ("HTTP://93.184.216.34/", INVALID_URL),
    ("http:/93.184.216.34/", INVALID_URL),
    # Other notations of loopback, resolved before the check.
    ("http://0x7f.1/", FORBIDDEN_URL),
    ("http://2130706433/", FORBIDDEN_URL),
    ("http://127.1/", FORBIDDEN_URL),
    ("http://[0:0::1]/", FORBIDDEN_URL),
]


@pytest.fixture
def alice(make_player, auth_client):
    user, token = make_player("alice")
    return user, auth_client(token)


@pytest.mark.parametrize(("url", "code"), REFUSED)
def test_the_strict_guard_refuses_the_notation_at_registration(alice, url, code):
    user, client = alice
    response = client.post(WEBHOOKS, {"url": url, "events": ["turn.due"]}, format="json")
    assert_error(response, 400, code)
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize(("url", "code"), REFUSED)
def test_the_strict_guard_refuses_the_notation_at_delivery(alice, url, code):
    """An endpoint stored before the guard knew the notation: its attempt fails with the code, no request made
    (the guard raises before any connection; ``status_code`` None)."""
    user, _ = alice
    endpoint = Endpoint.objects.create(user=user, url=url, events=["turn.due"], sealed_secret=seal("whsec_dGVzdA=="))
    message = endpoint_ping(user=user, endpoint_id=endpoint.pk)
    assert message_deliver(message_id=message.pk) is False
    (attempt,) = Attempt.objects.all()
    assert attempt.status_code is None and attempt.error.startswith(f"{code}: "), attempt.error
    assert Message.objects.get().status == "failed", "a ping is attempted once"


@pytest.mark.parametrize(
    ("address", "inner"),
    [
        ("64:ff9b::7f00:1", ["127.0.0.1"]),
        ("::127.0.0.1", ["127.0.0.1"]),
        ("::ffff:10.0.0.1", ["10.0.0.1"]),
        ("::ffff:0:a9fe:a9fe", ["169.254.169.254"]),
        ("2002:a9fe:a9fe::1", ["169.254.169.254"]),
        # Teredo: the server (bits 32-63), then the client (the last 32 bits XOR ffff:ffff).
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", ["65.54.227.120", "192.0.2.45"]),
        ("2606:4700::1111", []),
    ],
)
def test_the_ipv4_address_each_transition_form_carries(address, inner):
    assert embedded_ipv4(ipaddress.IPv6Address(address)) == [ipaddress.IPv4Address(value) for value in inner]


@pytest.mark.parametrize("url", ["http://[64:ff9b::808:808]/hook", "http://[2002:808:808::1]/", "https://1.1.1.1/"])
def test_a_transition_form_of_a_public_address_is_accepted(url):
    """NAT64 of a public address is how an IPv6-only network reaches it: it stays allowed."""
    assert check_url(url).address == url.split("//", 1)[1].split("/", 1)[0].strip("[]")


def test_metadata_behind_nat64_is_refused_even_where_its_network_is_allowed(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["169.254.0.0/16", "64:ff9b::/96"]
    with pytest.raises(ApplicationError) as refused:
        check_url("http://[64:ff9b::a9fe:a9fe]/")
    assert refused.value.code == FORBIDDEN_URL
    assert check_url("http://169.254.1.1/").address == "169.254.1.1"


def test_the_url_is_split_as_the_http_client_splits_it():
    target = check_url("http://u:p%40ss@93.184.216.34:8080/a/b?c=1#frag")
    assert (target.host, target.port, target.path) == ("93.184.216.34", 8080, "/a/b?c=1")
    assert (target.username, target.password) == ("u", "p@ss")
    assert target.pinned_url == "http://93.184.216.34:8080/a/b?c=1"

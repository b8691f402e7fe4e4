"""Which URLs a webhook may reach: ``http``/``https`` to public addresses only (no SSRF).

Checked when an endpoint is registered and again before each attempt, on the addresses the host resolves to
then; the attempt connects to the address checked (``Target.address``), so a DNS answer that changes between
the check and the connection cannot lead it elsewhere. ``settings.WEBHOOK_ALLOWED_NETWORKS`` lets tests and
local runs reach loopback or private networks; cloud metadata addresses are refused even then.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

from palace_api.errors import ApplicationError

INVALID_URL = "invalid_webhook_url"
FORBIDDEN_URL = "webhook_url_forbidden"
UNRESOLVABLE_URL = "webhook_url_unresolvable"
MAX_URL_LENGTH = 2000

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(address)
    for address in ("169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254", "168.63.129.16")
)
"""Cloud instance metadata services (AWS, ECS, Alibaba, AWS over IPv6, Azure): never reachable."""

Resolver = Callable[..., list[tuple[Any, ...]]]


@dataclass(frozen=True, slots=True)
class Target:
    """Where an attempt goes: ``scheme``, ``host`` as written (for the Host header and TLS), ``port``, the
    checked ``address`` to connect to, and ``path`` with its query."""

    scheme: str
    host: str
    port: int
    address: str
    path: str
    username: str | None = None
    password: str | None = None

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"

    @property
    def pinned_url(self) -> str:
        """The URL with the checked address in place of the host name."""
        address = f"[{self.address}]" if ":" in self.address else self.address
        return f"{self.scheme}://{address}:{self.port}{self.path}"


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(network, strict=False) for network in settings.WEBHOOK_ALLOWED_NETWORKS]


def address_forbidden(address: IPAddress) -> bool:
    """Whether a webhook may not reach ``address``: metadata services always; loopback, private, link-local,
    shared, reserved, multicast and unspecified addresses unless in ``WEBHOOK_ALLOWED_NETWORKS``."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address in METADATA_ADDRESSES:
        return True
    if any(address in network for network in _allowed_networks()):
        return False
    return not address.is_global or address.is_multicast


def parse_url(url: str) -> Target:
    """Split ``url`` without resolving it; ``address`` is left empty.

    Raises ``ApplicationError`` ``invalid_webhook_url`` (malformed, no host, too long) and
    ``webhook_url_forbidden`` (a scheme other than http or https).
    """
    if not isinstance(url, str) or not url or len(url) > MAX_URL_LENGTH or any(ch.isspace() for ch in url):
        raise ApplicationError(INVALID_URL, f"a webhook URL is an absolute http(s) URL of at most {MAX_URL_LENGTH}")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise ApplicationError(INVALID_URL, f"malformed URL: {error}") from error
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ApplicationError(FORBIDDEN_URL, "a webhook URL must use http or https")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise ApplicationError(INVALID_URL, "a webhook URL must name a host")
    try:
        host = host.encode("idna").decode("ascii") if not _is_address(host) else host
    except UnicodeError as error:
        raise ApplicationError(INVALID_URL, "the URL's host name is not a valid domain name") from error
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(
        scheme=scheme,
        host=host,
        port=port or (443 if scheme == "https" else 80),
        address="",
        path=path,
        username=parts.username,
        password=parts.password,
    )


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def check_url(url: str, *, resolve: Resolver | None = None) -> Target:
    """Parse ``url``, resolve its host (``resolve``: ``socket.getaddrinfo``'s signature) and check every address
    it resolves to; the first is the target.

    Raises ``ApplicationError``: ``invalid_webhook_url``, ``webhook_url_forbidden`` (a scheme other than http(s),
    or any address forbidden, see ``address_forbidden``), ``webhook_url_unresolvable`` (no address).
    """
    target = parse_url(url)
    try:
        infos = (resolve or socket.getaddrinfo)(target.host, target.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise ApplicationError(UNRESOLVABLE_URL, f"the host {target.host!r} does not resolve") from error
    addresses = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise ApplicationError(UNRESOLVABLE_URL, f"the host {target.host!r} does not resolve")
    for address in addresses:
        if address_forbidden(address):
            raise ApplicationError(
                FORBIDDEN_URL,
                f"the host {target.host!r} resolves to {address}, a loopback, private, link-local or metadata "
                "address that webhooks may not reach",
            )
    return Target(
        scheme=target.scheme,
        host=target.host,
        port=target.port,
        address=str(addresses[0]),
        path=target.path,
        username=target.username,
        password=target.password,
    )

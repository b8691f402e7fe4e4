"""Which URLs a webhook may reach: ``http``/``https`` to public addresses only (no SSRF).

Checked when an endpoint is registered and again before each attempt, on the addresses the host resolves to
then; the attempt connects to the address checked (``Target.address``), so a DNS answer that changes between
the check and the connection cannot lead it elsewhere. ``settings.WEBHOOK_ALLOWED_NETWORKS`` lets tests and
local runs reach loopback or private networks; cloud metadata addresses are refused even then.

A URL is split by the HTTP client's own parser (``httpx.URL``), the one the attempt uses, and refused when
another reading of it is possible: a backslash (which browsers' parsers read as a slash, so
``http://127.0.0.1\\@1.1.1.1/`` names 127.0.0.1 to them and 1.1.1.1 to httpx), a percent sign in the host, or any
disagreement with the standard library's ``urllib.parse`` on the host or port. An IPv6 address that carries an
IPv4 address (NAT64, 6to4, Teredo, IPv4-compatible, -mapped or -translated) is judged by that IPv4 address too.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
from django.conf import settings

from palace_api.errors import ApplicationError

INVALID_URL = "invalid_webhook_url"
FORBIDDEN_URL = "webhook_url_forbidden"
UNRESOLVABLE_URL = "webhook_url_unresolvable"
MAX_URL_LENGTH = 2000
SCHEME_PATTERN = "^https?://"
"""How a webhook URL starts (the schema's pattern): the scheme in lowercase, then the authority."""

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(address)
    for address in ("169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254", "168.63.129.16")
)
"""Cloud instance metadata services (AWS, ECS, Alibaba, AWS over IPv6, Azure): never reachable."""

NOT_GLOBAL = tuple(
    ipaddress.ip_network(network) for network in ("fec0::/10", "64:ff9b:1::/48", "3fff::/20", "5f00::/16")
)
"""Networks the IANA registries say are not globally reachable although Python 3.11's ``is_global`` says they
are: IPv6 site-local (deprecated, still routed inside sites), local-use NAT64 (RFC 8215), documentation
(RFC 9637) and SRv6 SIDs (RFC 9602)."""

NAT64 = ipaddress.ip_network("64:ff9b::/96")
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
IPV4_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")
LOW_32_BITS = 0xFFFFFFFF

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


def _allowed_networks() -> list[IPNetwork]:
    return [ipaddress.ip_network(network, strict=False) for network in settings.WEBHOOK_ALLOWED_NETWORKS]


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 transition address leads to: the last 32 bits of NAT64 (``64:ff9b::/96``,
    RFC 6052), IPv4-compatible (``::/96``), -mapped (``::ffff:0:0/96``) and -translated (``::ffff:0:0:0/96``)
    addresses; bits 16-47 of 6to4 (``2002::/16``); Teredo's server (bits 32-63) and client (the last 32 bits
    XOR ``ffff:ffff``) in ``2001::/32``. ``[]`` for any other address."""
    found: list[ipaddress.IPv4Address] = []
    if any(address in network for network in (NAT64, IPV4_COMPATIBLE, IPV4_TRANSLATED)) or address.ipv4_mapped:
        found.append(ipaddress.IPv4Address(int(address) & LOW_32_BITS))
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    return found


def _refused(address: IPAddress, allowed: list[IPNetwork]) -> bool:
    if address in METADATA_ADDRESSES:
        return True
    if any(address in network for network in allowed):
        return False
    return not address.is_global or address.is_multicast or any(address in network for network in NOT_GLOBAL)


def address_forbidden(address: IPAddress) -> bool:
    """Whether a webhook may not reach ``address``: metadata services always; loopback, private, link-local,
    shared, reserved, multicast and unspecified addresses unless in ``WEBHOOK_ALLOWED_NETWORKS``. An IPv6
    address that carries an IPv4 address (``embedded_ipv4``) is forbidden if that one is; an IPv4-mapped one is
    judged as its IPv4 address alone, as the connection goes to it."""
    allowed = _allowed_networks()
    if isinstance(address, ipaddress.IPv4Address):
        return _refused(address, allowed)
    if address.ipv4_mapped is not None:
        return _refused(address.ipv4_mapped, allowed)
    return _refused(address, allowed) or any(_refused(inner, allowed) for inner in embedded_ipv4(address))


def parse_url(url: str) -> Target:
    """Split ``url`` with ``httpx.URL`` without resolving it; ``address`` is left empty.

    Raises ``ApplicationError`` ``invalid_webhook_url`` (malformed, no host, too long, a port outside 1-65535,
    a scheme not written ``http://`` or ``https://``, or an authority URL parsers may read differently: a
    backslash, a ``%`` in the host, two ``@``, a host or port ``urllib.parse`` reads otherwise) and
    ``webhook_url_forbidden`` (a scheme other than http or https).
    """
    if not isinstance(url, str) or not url or len(url) > MAX_URL_LENGTH or any(ch.isspace() for ch in url):
        raise ApplicationError(INVALID_URL, f"a webhook URL is an absolute http(s) URL of at most {MAX_URL_LENGTH}")
    if "\\" in url:
        raise ApplicationError(INVALID_URL, "a backslash in a URL is read as a slash by some parsers: write none")
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, UnicodeError, ValueError) as error:
        raise ApplicationError(INVALID_URL, f"malformed URL: {error}") from error
    if parsed.scheme not in ("http", "https"):
        raise ApplicationError(FORBIDDEN_URL, "a webhook URL must use http or https")
    if not url.startswith(f"{parsed.scheme}://"):
        raise ApplicationError(INVALID_URL, "a webhook URL starts with http:// or https://, in lowercase")
    host = parsed.raw_host.decode("ascii").rstrip(".")
    if not host:
        raise ApplicationError(INVALID_URL, "a webhook URL must name a host")
    port = _port(parsed.port, parsed.scheme)
    _check_one_reading(url, host=host, port=port)
    return Target(
        scheme=parsed.scheme,
        host=host,
        port=port,
        address="",
        path=parsed.raw_path.decode("ascii"),
        username=parsed.username or None,
        password=parsed.password or None,
    )


def _check_one_reading(url: str, *, host: str, port: int) -> None:
    """Refuse ``url`` unless ``urllib.parse`` finds the same host and port as httpx did (``host``: httpx's,
    in ASCII), the host has no ``%`` (percent-encoding, or an IPv6 zone, which parsers decode differently) and
    the authority one ``@`` at most."""
    if "%" in host:
        raise ApplicationError(INVALID_URL, "a percent sign in the URL's host is read differently by URL parsers")
    authority = url.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    if authority.count("@") > 1:
        raise ApplicationError(INVALID_URL, "a second @ in the URL's authority is read differently by URL parsers")
    try:
        parts = urlsplit(url)
        other_port = _port(parts.port, parts.scheme)
    except ValueError as error:
        raise ApplicationError(INVALID_URL, f"malformed URL: {error}") from error
    if not 0 < port < 65536:
        raise ApplicationError(INVALID_URL, "a URL's port is 1 to 65535")
    if _host_key(parts.hostname or "") != _host_key(host) or other_port != port:
        raise ApplicationError(INVALID_URL, "the URL's host or port reads differently to different URL parsers")


def _port(port: int | None, scheme: str) -> int:
    if port is not None:
        return port
    return 443 if scheme == "https" else 80


def _host_key(host: str) -> str:
    """A host as one reading of it names it: an address in its canonical text, a name in lowercase ASCII."""
    host = host.rstrip(".")
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    try:
        return host.encode("idna").decode("ascii").lower()
    except UnicodeError as error:
        raise ApplicationError(INVALID_URL, "the URL's host name is not a valid domain name") from error


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
                "address (or an IPv6 form carrying one) that webhooks may not reach",
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

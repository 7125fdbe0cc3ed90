"""Where the server may send a Web Push notice (docs/api.md, "Web Push"): the push services of
the browsers, and nothing else.

A push endpoint is an URL the browser gives, so anyone may give any: unchecked, the server would
make requests for a stranger (server-side request forgery).  :func:`endpoint_of` takes only an
``https`` URL without credentials whose host is a name (never an address, in any of its
spellings) on the operator's allow-list (:attr:`PushRules.hosts`, the browsers' push services
by default) at an allowed port; :func:`address_refusal` says, at send time, whether an address
the name resolved to may be connected to (a public one only, unless the operator allows
private ones).  Pure functions: the resolving and the connecting are the transport's
(:mod:`cribbage.web.webpush`).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from ..errors import AppError

__all__ = ["MAX_ENDPOINT", "PUSH_HOSTS", "Endpoint", "PushRules", "address_refusal", "endpoint_of"]

MAX_ENDPOINT: Final = 1024
"""The longest push endpoint stored (the browsers' are a few hundred characters)."""

PUSH_HOSTS: Final = (
    "fcm.googleapis.com",  # Chrome, Edge on Android, Opera, Samsung Internet, Brave
    "updates.push.services.mozilla.com",  # Firefox
    "*.notify.windows.com",  # Edge on Windows (wns2-*.notify.windows.com)
    "web.push.apple.com",  # Safari (macOS 13, iOS 16.4 and later)
    "*.push.apple.com",
)
"""The push services browsers use: a name is that host, ``*.name`` its subdomains."""

_LABEL: Final = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOSTNAME: Final = re.compile(rf"(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*")


@dataclass(frozen=True)
class PushRules:
    """The operator's rules for Web Push endpoints and their sending.

    Attributes:
        hosts: the allowed hosts (``name``: that host; ``*.name``: its subdomains).
        ports: the allowed ports (443 only by default).
        private: addresses that are not public (loopback, private, link-local, reserved) may be
            connected to (tests; a push service on the operator's own network).
        timeout: seconds a push service may take to connect, and again to answer.
        ca_file: the certificates (PEM) that push services' certificates are checked against;
            None: the system's.
        per_host: notices sent at once to one push service (an entry of ``hosts``) at most.
        failures: consecutive failures after which a subscription is dropped.
    """

    hosts: tuple[str, ...] = PUSH_HOSTS
    ports: tuple[int, ...] = (443,)
    private: bool = False
    timeout: float = 5.0
    ca_file: str | None = None
    per_host: int = 2
    failures: int = 3


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A checked endpoint: its host (a name), port and target (path and query)."""

    host: str
    port: int
    target: str
    service: str
    """The entry of :attr:`PushRules.hosts` it matched (its sends share a line)."""

    @property
    def origin(self) -> str:
        """``https://host`` (with the port if it is not 443): the VAPID audience."""
        return f"https://{self.host}" if self.port == 443 else f"https://{self.host}:{self.port}"


def _refused(reason: str, message: str) -> AppError:
    return AppError("push.bad_endpoint", f"the push endpoint {message}", reason=reason)


def _is_address(host: str) -> bool:
    """Whether ``host`` is an IP address in any spelling a resolver takes (``127.0.0.1``,
    ``2130706433``, ``0x7f000001``, ``127.1``, ``0177.0.0.1``, ``::1``)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return True
    try:
        socket.inet_aton(host)
    except OSError:
        return False
    return True


def service_of(host: str, hosts: tuple[str, ...]) -> str | None:
    """The entry of ``hosts`` that allows ``host``, if any.

    >>> service_of("wns2-par02p.notify.windows.com", PUSH_HOSTS)
    '*.notify.windows.com'
    >>> service_of("notify.windows.com.evil.example", PUSH_HOSTS) is None
    True
    """
    for entry in hosts:
        if (entry.startswith("*.") and host.endswith(entry[1:])) or host == entry:
            return entry
    return None


def endpoint_of(url: str, rules: PushRules) -> Endpoint:
    """The endpoint of ``url`` if the server may send there.

    Raises:
        AppError: ``push.bad_endpoint`` with its ``reason``: ``too_long``, ``not_url``,
            ``not_https``, ``userinfo``, ``address`` (an IP address, not a name),
            ``host_not_allowed``, ``port_not_allowed``.
    """
    if len(url) > MAX_ENDPOINT:
        raise _refused("too_long", f"is longer than {MAX_ENDPOINT} characters")
    if not url.isascii() or not url.isprintable() or " " in url:
        raise _refused("not_url", "is not an URL")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise _refused("not_url", "is not an URL") from None
    if parts.scheme != "https":
        raise _refused("not_https", "is not an https URL")
    if "@" in parts.netloc:
        raise _refused("userinfo", "has a user name or password")
    host = (parts.hostname or "").lower()
    if _is_address(host):
        raise _refused("address", "is an IP address, not a push service's name")
    service = service_of(host, rules.hosts) if _HOSTNAME.fullmatch(host) else None
    if service is None:
        raise _refused("host_not_allowed", "is not at a push service this server sends to")
    port = 443 if port is None else port
    if port not in rules.ports:
        raise _refused("port_not_allowed", f"has the port {port}, not one this server sends to")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Endpoint(host, port, target, service)


def address_refusal(address: str, rules: PushRules) -> str | None:
    """Why the server may not connect to ``address`` (a resolved IP address), or None: only a
    public (``is_global``) unicast address, or with :attr:`PushRules.private` any but the
    unspecified and multicast ones.

    >>> address_refusal("169.254.169.254", PushRules())
    'not a public address'
    >>> address_refusal("::ffff:127.0.0.1", PushRules()), address_refusal("8.8.8.8", PushRules())
    ('not a public address', None)
    """
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_unspecified or ip.is_multicast:
        return "not a unicast address"
    if not ip.is_global and not rules.private:
        return "not a public address"
    return None

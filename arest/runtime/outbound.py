"""Outbound HTTP for federation (DESIGN §13): one GET to an external system, made safe.

    fetch(url, policy) = the response of GET url, when every address it reaches is allowed
                       = external_unavailable (system, status)  otherwise

The policy is the operator's, never the readings': only ``http`` and ``https``; the host is
resolved here and *every* address it resolves to must be global or inside a range the
operator allowed (``--allow-outbound CIDR``), so loopback, private, link-local (the cloud
metadata address ``169.254.169.254`` among them), shared and reserved ranges are refused by
default; the connection goes to the address that was checked (no second lookup between the
check and the connect); a redirect is followed only to a URL that passes the same checks, at
most ``max_redirects`` times; the whole exchange has one deadline (a slow body is cut off),
and a body longer than ``max_bytes`` is refused without being kept.

HTTPS trusts the certificate authorities of the system's store (OpenSSL's defaults, which
``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` replace) and those of the policy's ``ca_file`` (the
operator's ``--outbound-ca-file``) besides.  The TLS context holding them is built at the
first https request of a policy and kept by it (:class:`TlsContexts`), one per CA file.

Every failure is the error ``external_unavailable`` with the ``system`` and a ``status``: the
HTTP status the system answered, or a word (``timeout``, ``address_not_allowed``,
``scheme_not_allowed``, ``too_large``, ``too_many_redirects``, ``certificate_not_trusted``,
``unreachable``).  The headers sent (which may hold a secret) are never part of an error.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from arest.system.errors import Refusal

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Sequence[str]]

DEFAULT_TIMEOUT = 10.0
"""Seconds for a whole exchange: connect, headers and body, redirects included."""

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
"""The longest body read from an external system."""

DEFAULT_MAX_REDIRECTS = 3

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_TRUSTED = ("a certificate for the URL's host from an authority the server trusts: the"
            " system's store, or the PEM file of --outbound-ca-file")
_CHUNK = 64 * 1024


def resolve(host: str, port: int) -> list[str]:
    """Every address the host resolves to (the system's resolver), in its order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def networks(cidrs: Sequence[str]) -> tuple[Network, ...]:
    """The ranges the operator allowed, each a CIDR (``127.0.0.1/32``, ``10.0.0.0/8``) or
    one address; ``ValueError`` naming the first that is neither.

    >>> networks(["127.0.0.1", "10.0.0.0/8"])
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'))
    """
    out = []
    for cidr in cidrs:
        try:
            out.append(ipaddress.ip_network(cidr.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{cidr!r} is not a CIDR range (such as 10.0.0.0/8) "
                             "nor an address") from None
    return tuple(out)


TLS_CONTEXTS = 8
"""The most TLS contexts a policy keeps (one per CA file; the least recently used goes)."""


class TlsContexts:
    """The TLS context of each CA file (None: the system's store alone), built once and
    kept, at most ``limit``: building one reads the whole store, which costs far more than
    the handshake it serves.  A context is shared by the threads that fetch (OpenSSL makes
    each connection its own state); the lock guards only the table.

    >>> contexts = TlsContexts(limit=1)
    >>> contexts.context(None) is contexts.context(None), len(contexts)
    (True, 1)
    """

    def __init__(self, limit: int = TLS_CONTEXTS) -> None:
        self._limit = limit
        self._contexts: OrderedDict[str | None, ssl.SSLContext] = OrderedDict()
        self._lock = threading.Lock()

    def context(self, ca_file: str | None) -> ssl.SSLContext:
        """The context trusting the system's store and the CA file's authorities besides;
        ``OSError`` or ``ssl.SSLError`` when the file cannot be used (nothing is kept)."""
        with self._lock:
            found = self._contexts.get(ca_file)
            if found is not None:
                self._contexts.move_to_end(ca_file)
                return found
        built = ssl.create_default_context()
        if ca_file is not None:
            built.load_verify_locations(cafile=ca_file)
        with self._lock:
            kept = self._contexts.setdefault(ca_file, built)
            self._contexts.move_to_end(ca_file)
            while len(self._contexts) > self._limit:
                self._contexts.popitem(last=False)
        return kept

    def __len__(self) -> int:
        with self._lock:
            return len(self._contexts)


@dataclass(frozen=True)
class Policy:
    """Where outbound requests may go and how much they may take."""

    allowed: tuple[Network, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    max_redirects: int = DEFAULT_MAX_REDIRECTS
    resolver: Resolver = field(default=resolve, compare=False)
    ca_file: str | None = None
    """A PEM file of certificate authorities HTTPS trusts besides the system's store."""
    tls: TlsContexts = field(default_factory=TlsContexts, compare=False, repr=False)
    """The TLS contexts this policy's requests use (shared by the copies ``replace``
    makes of it, as a system's own timeout or size does)."""

    def permits(self, address: str) -> bool:
        """A global address, or one inside an allowed range (an IPv4 address written as
        IPv6 is judged as the IPv4 address it is).

        >>> Policy().permits("93.184.216.34"), Policy().permits("127.0.0.1")
        (True, False)
        >>> Policy().permits("169.254.169.254"), Policy().permits("::ffff:10.0.0.1")
        (False, False)
        >>> Policy(networks(["127.0.0.0/8"])).permits("127.0.0.1")
        True
        """
        ip: Address = ipaddress.ip_address(address.split("%", 1)[0])
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if any(ip.version == net.version and ip in net for net in self.allowed):
            return True
        return ip.is_global and not ip.is_multicast


@dataclass(frozen=True)
class Response:
    """What a system answered: its status, headers (lower-case names) and body."""

    status: int
    headers: Mapping[str, str]
    body: bytes
    url: str


def unavailable(system: str, status: int | str, message: str, **details: Any) -> Refusal:
    """``external_unavailable`` naming the system and the status (a number or a word)."""
    return Refusal("external_unavailable", f"external system {system!r}: {message}",
                   system=system, status=status, **details)


@dataclass(frozen=True)
class _Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str


def check(url: str, policy: Policy, system: str) -> _Target:
    """The URL's scheme, host, port, path and the address to connect to, once every address
    the host resolves to is permitted; ``external_unavailable`` saying what was refused and
    what would be accepted otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise unavailable(system, "scheme_not_allowed",
                          f"{parts.scheme or 'a URL without a scheme'}: only http and https "
                          "URLs are fetched", expected="an http or https URL")
    if not parts.hostname:
        raise unavailable(system, "scheme_not_allowed", f"{url}: no host",
                          expected="an http or https URL with a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise unavailable(system, "unreachable", f"{url}: the port is not a number") from None
    try:
        addresses = list(policy.resolver(parts.hostname, port))
    except OSError:
        raise unavailable(system, "unreachable",
                          f"{parts.hostname} does not resolve") from None
    refused = [address for address in addresses if not policy.permits(address)]
    if refused or not addresses:
        raise unavailable(
            system, "address_not_allowed",
            f"{parts.hostname} resolves to {', '.join(refused) or 'nothing'}, outside the "
            "ranges outbound requests may reach", host=parts.hostname, addresses=refused,
            expected="a global address, or one the operator allows (--allow-outbound CIDR)")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return _Target(parts.scheme, parts.hostname, port, path, addresses[0])


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address, the certificate checked against the URL's host name."""

    def __init__(self, host: str, address: str, port: int, timeout: float,
                 context: ssl.SSLContext) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(  # type: ignore[attr-defined]
            sock, server_hostname=self.host)


def _connection(target: _Target, timeout: float, policy: Policy
                ) -> http.client.HTTPConnection:
    if target.scheme == "https":
        return _PinnedHTTPS(target.host, target.address, target.port, timeout,
                            policy.tls.context(policy.ca_file))
    # http.client connects to the host it is given: the checked address, never a new lookup.
    return http.client.HTTPConnection(target.address, target.port, timeout=timeout)


def _host_header(target: _Target) -> str:
    default = 443 if target.scheme == "https" else 80
    host = f"[{target.host}]" if ":" in target.host else target.host
    return host if target.port == default else f"{host}:{target.port}"


def _once(target: _Target, headers: Mapping[str, str], policy: Policy, deadline: float,
          system: str, url: str) -> Response:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise unavailable(system, "timeout", f"{url} took longer than {policy.timeout} s")
    try:
        connection = _connection(target, remaining, policy)
    except (OSError, ssl.SSLError) as error:
        raise unavailable(system, "certificate_not_trusted",
                          f"the CA file {policy.ca_file} cannot be used: "
                          f"{getattr(error, 'strerror', None) or error}",
                          expected=_TRUSTED) from None
    try:
        connection.putrequest("GET", target.path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", _host_header(target))
        for name, value in {"Accept": "application/json", **headers}.items():
            connection.putheader(name, value)
        connection.endheaders()
        answer = connection.getresponse()
        length = answer.getheader("Content-Length")
        if length is not None and length.isdigit() and int(length) > policy.max_bytes:
            raise unavailable(system, "too_large",
                              f"{url} answers {length} bytes, more than {policy.max_bytes}",
                              limit=policy.max_bytes)
        body = bytearray()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise unavailable(system, "timeout",
                                  f"{url} took longer than {policy.timeout} s")
            if connection.sock is not None:
                connection.sock.settimeout(left)
            chunk = answer.read1(_CHUNK)
            if not chunk:
                break
            body += chunk
            if len(body) > policy.max_bytes:
                raise unavailable(system, "too_large",
                                  f"{url} answers more than {policy.max_bytes} bytes",
                                  limit=policy.max_bytes)
        found = {name.lower(): value for name, value in answer.getheaders()}
        return Response(answer.status, found, bytes(body), url)
    except TimeoutError:
        raise unavailable(system, "timeout",
                          f"{url} took longer than {policy.timeout} s") from None
    except ssl.SSLCertVerificationError as error:
        reason = error.verify_message or str(error.reason)
        raise unavailable(system, "certificate_not_trusted",
                          f"{url}: its certificate is not trusted ({reason})",
                          reason=reason, expected=_TRUSTED) from None
    except (OSError, http.client.HTTPException) as error:
        raise unavailable(system, "unreachable",
                          f"{url}: {type(error).__name__}") from None
    finally:
        connection.close()


def fetch(url: str, policy: Policy, system: str,
          headers: Mapping[str, str] | None = None) -> Response:
    """GET url under the policy, following redirects that pass it; the final response
    (a 304 too, for a conditional request).  ``external_unavailable`` for anything refused,
    slow, too long or unreachable; a status the system answered is returned as it is."""
    deadline = time.monotonic() + policy.timeout
    sent = dict(headers or {})
    for _ in range(policy.max_redirects + 1):
        target = check(url, policy, system)
        response = _once(target, sent, policy, deadline, system, url)
        location = response.headers.get("location")
        if response.status not in _REDIRECTS or location is None:
            return response
        following = urljoin(url, location)
        if urlsplit(following).hostname != target.host:
            # The system's headers (a secret among them) are for its own host only.
            sent = {}
        url = following
    raise unavailable(system, "too_many_redirects",
                      f"more than {policy.max_redirects} redirects",
                      limit=policy.max_redirects)

"""What guards the page on a home network: a Host allow-list (against DNS rebinding), a check
that changes come from the page itself, the table PIN, and limits on request bodies.

Each guard is a small ASGI middleware that answers with one plain sentence: JSON
``{"error": ...}`` under ``/api`` and ``/healthz``, a short page elsewhere. There is no CORS
middleware on purpose: no other site may call this page's API.
"""

from __future__ import annotations

import hashlib
import html
import ipaddress
import json
import math
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterable
from typing import ClassVar
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PIN_HEADER = "x-table-pin"
# POSTs that change nothing (checking a house-rules text), so they need no PIN
READ_ONLY_POSTS = frozenset({"/api/rules/check"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# With a PIN, reading these needs it too: scan photos, exports, past games.
PIN_READS = ("/scans/", "/api/games")
FREE_TRIES = 5  # wrong PINs a phone may give before it waits, longer each time
LONGEST_WAIT_S = 15 * 60.0
MAX_CLIENTS = 1024  # phones whose wrong PINs are remembered
REMEMBERED_PINS = 64  # different wrong PINs remembered per phone
MAX_SESSIONS = 256  # phones that gave the PIN
SESSION_COOKIE = "handfoot-session"
SESSION_S = 30 * 24 * 3600
# Only this page's own files: no inline script, no other site's, and no framing.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


def machine_host_names() -> set[str]:
    """This machine's names as a phone may type them: ``localhost``, its host name, the host
    name with ``.local`` (mDNS) and its fully qualified name."""
    names = {"localhost"}
    with_errors_ignored = (socket.gethostname, socket.getfqdn)
    for get in with_errors_ignored:
        try:
            name = get().strip().lower().rstrip(".")
        except OSError:
            continue
        if name:
            names |= {name, name.split(".")[0], name.split(".")[0] + ".local"}
    return names


def host_of(header: str) -> str:
    """The host part of a Host header, lower case, without the port.

    >>> host_of("Pi.local:8080"), host_of("[::1]:8080"), host_of("127.0.0.1")
    ('pi.local', '::1', '127.0.0.1')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class HostAllowList:
    """Which Host headers are this machine. Any IP address written as such is allowed: DNS
    rebinding needs a name the attacker controls, so an address typed by a person is safe.
    Names must be this machine's (or listed in ``extra``)."""

    def __init__(self, extra: Iterable[str] = ()) -> None:
        self.names = machine_host_names() | {name.lower() for name in extra}

    def allows(self, header: str | None) -> bool:
        if not header:
            return False
        host = host_of(header)
        return is_ip_literal(host) or host in self.names or host.endswith(".localhost")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


async def refuse(
    scope: Scope, send: Send, status: int, message: str, headers: dict[str, str] | None = None
) -> None:
    """Answer with one plain sentence, JSON for the API, a small page for a person."""
    path = scope.get("path", "")
    if path.startswith(("/api", "/scans/")) or path == "/healthz":
        body = json.dumps({"error": message}).encode()
        kind = b"application/json"
    else:
        body = (
            "<!doctype html><meta charset=utf-8><title>handfoot</title>"
            '<link rel="stylesheet" href="/static/handfoot.css">'
            f'<body><p class="refused">{html.escape(message)}</p>'
        ).encode()
        kind = b"text/html; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                *((k.encode(), v.encode()) for k, v in (headers or {}).items()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class HostGuard:
    """Refuse requests whose Host is not this machine (400)."""

    def __init__(self, app: ASGIApp, allow: HostAllowList) -> None:
        self.app = app
        self.allow = allow

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if not self.allow.allows(host):
            await refuse(
                scope,
                send,
                400,
                f"This page answers only to this machine's own names and addresses, "
                f"not to {host or 'a request without a host'!r}.",
            )
            return
        await self.app(scope, receive, send)


class PinTries:
    """Wrong PINs counted per client (its address), so that a stranger guessing locks out only
    themself. After :data:`FREE_TRIES` different wrong PINs a client waits before its next try,
    twice as long each time (2 s, 4 s, ... up to :data:`LONGEST_WAIT_S`); a right PIN clears
    its count. The same wrong PIN sent again (a page that remembered a mistyped PIN) is no new
    guess and is not counted again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        # client: (different wrong PINs, wait until, digests of the wrong PINs seen)
        self._wrong: dict[str, tuple[int, float, frozenset[bytes]]] = {}

    def wait_s(self, client: str) -> float:
        """Seconds the client must still wait before its next try (0: it may try)."""
        with self._lock:
            _, until, _ = self._wrong.get(client, (0, 0.0, frozenset()))
            return max(0.0, until - self._clock())

    def wrong(self, client: str, given: str = "") -> None:
        digest = hashlib.sha256(given.encode()).digest()[:8]
        with self._lock:
            if len(self._wrong) >= MAX_CLIENTS and client not in self._wrong:
                # bounded memory: forget the client whose wait ended longest ago
                del self._wrong[min(self._wrong, key=lambda c: self._wrong[c][1])]
            count, _, seen = self._wrong.get(client, (0, 0.0, frozenset()))
            if given and digest in seen:
                return
            count += 1
            wait = 0.0
            if count > FREE_TRIES:
                wait = min(LONGEST_WAIT_S, 2.0 ** (count - FREE_TRIES))
            kept = seen | {digest} if len(seen) < REMEMBERED_PINS else seen
            self._wrong[client] = (count, self._clock() + wait, kept)

    def right(self, client: str) -> None:
        with self._lock:
            self._wrong.pop(client, None)


class Sessions:
    """Phones that gave the right PIN: a random token each, in an ``HttpOnly``,
    ``SameSite=Strict`` cookie, so the PIN is typed once per phone. Kept in memory only (a
    restart asks again); the oldest is forgotten past :data:`MAX_SESSIONS`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[str, None] = {}

    def new(self) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._tokens[token] = None
            while len(self._tokens) > MAX_SESSIONS:
                del self._tokens[next(iter(self._tokens))]
        return token

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            return any(secrets.compare_digest(token, known) for known in self._tokens)


class ChangeGuard:
    """Changes (anything but GET/HEAD/OPTIONS) must come from the page itself: an ``Origin``
    of this host, or ``Sec-Fetch-Site: same-origin``, and a request with neither is refused
    (a form or a link on another site, an old client forging ``Referer``). With a table PIN,
    changes, and reading photos, exports and past games, need the PIN: given in the
    ``X-Table-PIN`` header once, after which the phone's session cookie carries it."""

    def __init__(
        self,
        app: ASGIApp,
        pin: str | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.pin = pin
        self.tries = PinTries(clock)
        self.sessions = Sessions()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        change = scope["method"] not in SAFE_METHODS
        if change and not _from_this_page(scope):
            await refuse(scope, send, 403, "Changes are accepted only from this table's own page.")
            return
        if self.pin is None or not _needs_pin(scope["method"], scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        problem, token = self._pin_problem(scope)
        if problem is not None:
            await refuse(scope, send, *problem)
            return
        if token is None:
            await self.app(scope, receive, send)
            return

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                cookie = (
                    f"{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; "
                    f"Max-Age={SESSION_S}"
                )
                message = {
                    **message,
                    "headers": [*message["headers"], (b"set-cookie", cookie.encode())],
                }
            await send(message)

        await self.app(scope, receive, with_cookie)

    def _pin_problem(self, scope: Scope) -> tuple[tuple | None, str | None]:
        """(the refusal, or None; a new session token to hand out, or None)."""
        if self.sessions.valid(_cookie(scope, SESSION_COOKIE)):
            return None, None
        client = (scope.get("client") or ("unknown", 0))[0]
        wait = self.tries.wait_s(client)
        if wait > 0:
            return (429, _wait_sentence(wait), {"retry-after": str(math.ceil(wait))}), None
        given = _header(scope, PIN_HEADER.encode())
        if not given:
            return (401, "This table has a PIN: enter the table's PIN first."), None
        assert self.pin is not None
        if not secrets.compare_digest(given.strip().encode(), self.pin.encode()):
            self.tries.wrong(client, given.strip())
            return (403, "That is not the table's PIN: check it and try again."), None
        self.tries.right(client)
        return None, self.sessions.new()


def _needs_pin(method: str, path: str) -> bool:
    if method not in SAFE_METHODS:
        return path not in READ_ONLY_POSTS
    return path.startswith(PIN_READS)


def _wait_sentence(wait: float) -> str:
    """
    >>> _wait_sentence(3.2), _wait_sentence(130)
    ('Too many wrong PINs from this phone: wait 4 seconds, then try again.', 'Too many wrong PINs from this phone: wait 3 minutes, then try again.')
    """  # noqa: E501
    shown = f"{math.ceil(wait)} seconds" if wait < 100 else f"{math.ceil(wait / 60)} minutes"
    return f"Too many wrong PINs from this phone: wait {shown}, then try again."


def _cookie(scope: Scope, name: str) -> str | None:
    header = _header(scope, b"cookie")
    if not header:
        return None
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def _from_this_page(scope: Scope) -> bool:
    site = _header(scope, b"sec-fetch-site")
    origin = _header(scope, b"origin")
    if site is not None and site != "same-origin":
        return False
    if origin is not None:
        return origin != "null" and (
            urlsplit(origin).netloc.lower() == (_header(scope, b"host") or "").lower()
        )
    return site == "same-origin"


class SecurityHeaders:
    """Headers on every answer: no other site may frame the page or run script in it, a file
    is only what its type says, and no address of the table leaks to another site."""

    HEADERS: ClassVar[list[tuple[bytes, bytes]]] = [
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
    ]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message["headers"], *self.HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


class TooLarge(HTTPException):
    """A request body over its limit, found while reading it (an HTTPException, so that a
    route part-way through reading it answers 413 rather than "cannot parse")."""

    def __init__(self, message: str) -> None:
        super().__init__(413, message)


class BodyLimit:
    """Refuse bodies over a limit with 413 — from Content-Length at once, or by counting the
    bytes as they arrive — before the route does anything with them. ``limit_for(path)`` gives
    each path's limit (uploads get a larger one)."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        message = f"The request is too large: the limit is {_size(limit)}."
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            await refuse(scope, send, 413, message)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            received = await receive()
            if received["type"] == "http.request":
                seen += len(received.get("body", b""))
                if seen > limit:
                    raise TooLarge(message)
            return received

        async def watched(sent: Message) -> None:
            nonlocal started
            if sent["type"] == "http.response.start":
                started = True
            await send(sent)

        try:
            await self.app(scope, counted, watched)
        except TooLarge:
            if not started:
                await refuse(scope, send, 413, message)


def _size(limit: int) -> str:
    """
    >>> _size(15 * 2**20), _size(64 * 2**10), _size(500)
    ('15 MB', '64 KB', '500 bytes')
    """
    if limit >= 2**20:
        return f"{limit / 2**20:g} MB"
    if limit >= 2**10:
        return f"{limit / 2**10:g} KB"
    return f"{limit} bytes"

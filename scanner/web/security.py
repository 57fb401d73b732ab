"""What guards the page on a home network: a Host allow-list (against DNS rebinding), a check
that changes come from the page itself, the table PIN, and limits on request bodies.

Each guard is a small ASGI middleware that answers with one plain sentence: JSON
``{"error": ...}`` under ``/api`` and ``/healthz``, a short page elsewhere. There is no CORS
middleware on purpose: no other site may call this page's API.
"""

from __future__ import annotations

import html
import ipaddress
import json
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PIN_HEADER = "x-table-pin"
# POSTs that change nothing (checking a house-rules text), so they need no PIN
READ_ONLY_POSTS = frozenset({"/api/rules/check"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
PIN_TRIES = 10  # wrong PINs allowed per minute before the page makes the phone wait
PIN_WINDOW_S = 60.0


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


async def refuse(scope: Scope, send: Send, status: int, message: str) -> None:
    """Answer with one plain sentence, JSON for the API, a small page for a person."""
    path = scope.get("path", "")
    if path.startswith("/api") or path == "/healthz":
        body = json.dumps({"error": message}).encode()
        kind = b"application/json"
    else:
        body = (
            "<!doctype html><meta charset=utf-8><title>handfoot</title>"
            '<body style="font: 22px/1.5 sans-serif; margin: 2em">'
            f"<p>{html.escape(message)}</p>"
        ).encode()
        kind = b"text/html; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())],
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


class ChangeGuard:
    """Changes (anything but GET/HEAD/OPTIONS) must come from the page itself, and carry the
    table PIN when one is set."""

    def __init__(
        self,
        app: ASGIApp,
        pin: str | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.pin = pin
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: list[float] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        problem = self._problem(scope)
        if problem is not None:
            await refuse(scope, send, *problem)
            return
        await self.app(scope, receive, send)

    def _problem(self, scope: Scope) -> tuple[int, str] | None:
        if _header(scope, b"sec-fetch-site") == "cross-site" or not _same_origin(scope):
            return 403, "Changes are accepted only from this table's own page."
        if self.pin is None or scope["path"] in READ_ONLY_POSTS:
            return None
        with self._lock:
            now = self._clock()
            self._wrong = [t for t in self._wrong if now - t < PIN_WINDOW_S]
            if len(self._wrong) >= PIN_TRIES:
                return 429, "Too many wrong PINs: wait a minute, then try again."
            given = _header(scope, PIN_HEADER.encode())
            if not given:
                return 401, "This table has a PIN: enter the table's PIN to make changes."
            if not secrets.compare_digest(given.strip().encode(), self.pin.encode()):
                self._wrong.append(now)
                return 403, "That is not the table's PIN: check it and try again."
        return None


def _same_origin(scope: Scope) -> bool:
    origin = _header(scope, b"origin")
    if origin is None or origin == "null":
        return origin is None
    return urlsplit(origin).netloc.lower() == (_header(scope, b"host") or "").lower()


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

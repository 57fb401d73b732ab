"""A cap on the live-update streams (``/api/events``): each one holds a connection, an open file
and a queue for as long as a page is open, so a stranger opening thousands would run the server
out of files. A client (an address) keeps at most :data:`PER_CLIENT` and the table at most
:data:`IN_ALL`; a new one past either closes the oldest, which is told to come back later."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PER_CLIENT = 6  # a phone with a few tabs open
IN_ALL = 64  # every phone at a big table, several times over
COME_BACK_MS = 30_000  # how long a closed stream's page waits before it reconnects


@dataclass
class Stream:
    client: str
    close: Callable[[], None]  # ends the stream (called on the event loop's thread)
    number: int = field(default_factory=itertools.count().__next__)


class StreamLimit:
    def __init__(self, per_client: int = PER_CLIENT, in_all: int = IN_ALL) -> None:
        self.per_client = per_client
        self.in_all = in_all
        self._lock = threading.Lock()
        self._open: list[Stream] = []  # oldest first

    def open(self, client: str, close: Callable[[], None]) -> Stream:
        """Count a new stream in, closing the oldest ones past the limits."""
        stream = Stream(client, close)
        with self._lock:
            self._open.append(stream)
            evicted = []
            mine = [s for s in self._open if s.client == client]
            evicted += mine[: max(0, len(mine) - self.per_client)]
            rest = [s for s in self._open if s not in evicted]
            evicted += rest[: max(0, len(rest) - self.in_all)]
            self._open = [s for s in self._open if s not in evicted]
        for old in evicted:
            old.close()
        return stream

    def done(self, stream: Stream) -> None:
        with self._lock:
            if stream in self._open:
                self._open.remove(stream)

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._open)


class CloseAfterStream:
    """A stream's connection ends with the stream (``Connection: close``): one closed for a
    newer one gives its open file back at once, not after a keep-alive wait."""

    def __init__(self, app: ASGIApp, path: str) -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") != self.path:
            await self.app(scope, receive, send)
            return

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"connection", b"close")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, closing)

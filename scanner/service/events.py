"""Telling whoever listens that the table changed: the page's live updates (server-sent events)
and, later, the gpiozero panel. Listeners are called on the service's worker thread, in the
order the changes happened, so a listener must only hand the event on (to its own queue or
event loop), never block."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

Listener = Callable[[dict], None]


class Broadcaster:
    """Subscribe a listener, get back the function that unsubscribes it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._listeners)

    def publish(self, event: dict) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(event)
            except Exception:
                # A listener whose page went away must not stop the others hearing of it.
                log.warning("a listener failed; it is dropped", exc_info=True)
                with self._lock:
                    if listener in self._listeners:
                        self._listeners.remove(listener)

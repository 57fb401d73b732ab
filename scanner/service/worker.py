"""The one worker that owns the table's state.

Every operation, whoever asks (a page's request on a web thread, a panel button on gpiozero's
thread), is a command put on one queue; the worker applies them in order, and only it replaces
the state, publishing each change to the listeners (:attr:`Worker.events`).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from typing import Any, TypeVar

from scanner.service.errors import Busy, NotNow
from scanner.service.events import Broadcaster
from scanner.service.state import TableState

log = logging.getLogger(__name__)
T = TypeVar("T")

COMMAND_TIMEOUT_S = 30.0


class Worker:
    """The queue, the state and the thread that applies commands to it. The table's commands
    (the other parts of :class:`~scanner.service.service.TableService`) build on it."""

    def __init__(self) -> None:
        self.events = Broadcaster()
        self._queue: queue.Queue[tuple[Callable[[], Any], Future] | None] = queue.Queue()
        self._state = TableState()
        self._worker: threading.Thread | None = None

    def _start_worker(self, state: TableState) -> None:
        """Make ``state`` the first state and start applying commands."""
        self._state = state
        self._worker = threading.Thread(target=self._run, name="table-service", daemon=True)
        self._worker.start()

    def _stop_worker(self) -> None:
        """Apply the commands already queued, then stop and tell every listener."""
        assert self._worker is not None
        self._queue.put(None)
        self._worker.join(timeout=10)
        self._worker = None
        self.events.publish({"kind": "closed", "version": self._state.version})

    @property
    def running(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    @property
    def state(self) -> TableState:
        """The current state (immutable; the worker replaces it at each change)."""
        return self._state

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            command, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(command())
            except BaseException as error:
                future.set_exception(error)

    def _submit(self, command: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        if not self.running:
            future.set_exception(NotNow("The table service is not running."))
            return future
        self._queue.put((command, future))
        return future

    def _call(self, command: Callable[[], T]) -> T:
        return self._submit(command).result(timeout=COMMAND_TIMEOUT_S)

    def _post(self, command: Callable[[], Any]) -> None:
        """Queue a command nobody waits for; a failure is logged."""

        def report(future: Future) -> None:
            if future.exception() is not None and not isinstance(future.exception(), Busy):
                log.error("a queued command failed", exc_info=future.exception())

        self._submit(command).add_done_callback(report)

    def _commit(self, state: TableState, kind: str, message: str | None = None) -> None:
        """Make ``state`` current (worker only) and tell every listener."""
        state = replace(state, version=self._state.version + 1, message=message)
        self._state = state
        self.events.publish(
            {
                "kind": kind,
                "version": state.version,
                "message": message,
                "panel": state.panel.to_json(),
                "last_scan": state.last_scan,
            }
        )

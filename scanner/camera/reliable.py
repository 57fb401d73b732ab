"""A source that tries again: cameras drop out (a loose cable, a USB reset, a busy driver) and
often come back when reopened."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from scanner.camera.errors import CameraError
from scanner.camera.source import Frame, FrameSource

log = logging.getLogger(__name__)


class ReliableSource(FrameSource):
    """Wraps ``source``: when a capture fails it closes the source, waits ``wait_s``, reopens
    it and tries again, ``attempts`` tries in all, then raises one :class:`CameraError` that
    carries the last failure. Frames are the wrapped source's own (its spec, its numbers);
    ``describe()`` is the wrapped source's, plus the failures seen here."""

    kind = "reliable"

    def __init__(
        self,
        source: FrameSource,
        attempts: int = 3,
        wait_s: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if attempts < 1:
            raise ValueError(f"attempts must be 1 or more, not {attempts}")
        self.spec = source.spec
        self.source = source
        self.attempts = attempts
        self.wait_s = wait_s
        self._sleep = sleep
        self._lock = threading.RLock()
        self._failures = 0  # tries that failed
        self._recoveries = 0  # captures that worked after a failed try
        self._gave_up = 0  # captures that failed every try
        self._last_error: str | None = None

    @property
    def is_open(self) -> bool:
        return self.source.is_open

    def open(self) -> None:
        self.source.open()

    def close(self) -> None:
        self.source.close()

    def capture(self) -> Frame:
        with self._lock:
            last: CameraError | None = None
            for attempt in range(1, self.attempts + 1):
                if attempt > 1:
                    self._sleep(self.wait_s)
                try:
                    frame = self.source.capture()
                except CameraError as error:
                    last = error
                    self._failures += 1
                    self._last_error = str(error)
                    log.warning(
                        "camera %s failed (try %d of %d): %s",
                        self.spec,
                        attempt,
                        self.attempts,
                        error,
                    )
                    self.source.close()
                    continue
                if attempt > 1:
                    self._recoveries += 1
                    log.info("camera %s answers again (try %d)", self.spec, attempt)
                return frame
            self._gave_up += 1
            raise CameraError(
                f"the camera '{self.spec}' stopped answering after {self.attempts} tries: {last}",
                source=self.spec,
            ) from last

    def describe(self) -> dict[str, Any]:
        inner = self.source.describe()
        return {
            **inner,
            "last_error": self._last_error or inner.get("last_error"),
            "attempts": self.attempts,
            "failures": self._failures,
            "recoveries": self._recoveries,
            "gave_up": self._gave_up,
        }

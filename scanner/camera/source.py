"""A captured frame, and what every frame source does: open, capture, close, describe."""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, ClassVar

import cv2
import numpy as np

from scanner.camera.errors import CameraError

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture of the table.

    ``image`` is RGB uint8 [H, W, 3], C-contiguous; it is the caller's to keep, but copy it
    before drawing on it if the frame is shared. ``source`` is the spec of the source that took
    it, ``number`` counts that source's captures from 0, ``name`` is what a person sees (a file
    path, ``"webcam 0 frame 12"``, ``"synthetic table 7 shot 2"``), and ``truth`` holds a
    rendered scene's labels (the ``handfoot-scene/1`` dict), None for real pictures."""

    image: np.ndarray
    source: str
    number: int
    captured_at: float
    name: str
    truth: dict | None = None

    def __repr__(self) -> str:
        height, width = self.image.shape[:2]
        return (
            f"Frame({self.name!r}, source={self.source!r}, number={self.number}, "
            f"size={width}x{height})"
        )


@dataclass(frozen=True, eq=False)
class Picture:
    """What a source's ``_capture`` hands back; :class:`SourceBase` makes the Frame."""

    image: np.ndarray
    name: str
    truth: dict | None = None


def bgr_to_rgb(image: np.ndarray) -> np.ndarray:
    """An OpenCV-ordered picture (BGR, BGRA or grey) as RGB."""
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2RGB)
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def checked_image(image: object, source: str) -> np.ndarray:
    """``image`` if it is a usable RGB frame (made C-contiguous), else :class:`CameraError`:
    a source never hands on a broken picture."""
    if (
        not isinstance(image, np.ndarray)
        or image.dtype != np.uint8
        or image.ndim != 3
        or image.shape[2] != 3
        or image.size == 0
    ):
        shape = getattr(image, "shape", None)
        dtype = getattr(image, "dtype", type(image).__name__)
        raise CameraError(
            f"the camera '{source}' gave a broken picture (shape {shape}, type {dtype})",
            source=source,
        )
    return np.ascontiguousarray(image)


class FrameSource(ABC):
    """Where frames come from. ``open()`` is idempotent and raises :class:`CameraError`;
    ``capture()`` opens when needed and raises :class:`CameraError` rather than return a
    broken frame; ``close()`` is idempotent and never raises; ``describe()`` gives JSON-able
    state for a health page. Used as a context manager it opens and closes itself."""

    spec: str
    kind: ClassVar[str]

    @property
    @abstractmethod
    def is_open(self) -> bool: ...

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def capture(self) -> Frame: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """``{"spec", "kind", "open", "frames", "last_error"}`` and whatever else the source
        knows, all JSON-able."""

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r})"


class SourceBase(FrameSource):
    """The bookkeeping every real source shares: the frame count, the last error, the lock
    (a health page may call ``describe()`` from another thread while the service captures),
    and the checks on what a device hands back. A subclass implements ``_open``, ``_capture``
    and ``_close``."""

    def __init__(self, spec: str, *, clock: Callable[[], float] = time.time) -> None:
        self.spec = spec
        self._clock = clock
        self._lock = threading.RLock()
        self._open_now = False
        self._frames = 0
        self._last_error: str | None = None

    @property
    def is_open(self) -> bool:
        return self._open_now

    @property
    def frames(self) -> int:
        """How many frames this source has given."""
        return self._frames

    def open(self) -> None:
        with self._lock:
            if self._open_now:
                return
            try:
                self._open()
            except CameraError as error:
                self._last_error = str(error)
                self._close_quietly()
                raise
            self._open_now = True
            log.info("camera %s opened", self.spec)

    def capture(self) -> Frame:
        with self._lock:
            self.open()
            try:
                picture = self._capture(self._frames)
                image = checked_image(picture.image, self.spec)
            except CameraError as error:
                self._last_error = str(error)
                raise
            frame = Frame(
                image, self.spec, self._frames, self._clock(), picture.name, picture.truth
            )
            self._frames += 1
            return frame

    def close(self) -> None:
        with self._lock:
            if not self._open_now:
                return
            self._open_now = False
            self._close_quietly()
            log.info("camera %s closed", self.spec)

    def describe(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "kind": self.kind,
            "open": self._open_now,
            "frames": self._frames,
            "last_error": self._last_error,
            **self._details(),
        }

    def _close_quietly(self) -> None:
        # close() runs in finally blocks and after failures: a device that will not let go
        # is logged, never raised over the error that is already on its way.
        try:
            self._close()
        except Exception:
            log.warning("camera %s did not close cleanly", self.spec, exc_info=True)

    @abstractmethod
    def _open(self) -> None:
        """Acquire the device or files; raise CameraError. A failure here is followed by
        ``_close``, so it must cope with a half-opened source."""

    @abstractmethod
    def _capture(self, number: int) -> Picture:
        """Take frame ``number``; raise CameraError."""

    @abstractmethod
    def _close(self) -> None:
        """Let go of the device; may be called on a half-opened source."""

    def _details(self) -> dict[str, Any]:
        """Extra JSON-able facts for :meth:`describe`."""
        return {}

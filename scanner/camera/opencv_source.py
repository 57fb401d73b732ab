"""OpenCV's VideoCapture as a camera: a USB webcam, or a video file played in a loop."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from scanner.camera.errors import BadSpecError, CameraError
from scanner.camera.source import Picture, SourceBase, bgr_to_rgb

log = logging.getLogger(__name__)

VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm")
# Webcams queue frames in the driver while nobody reads them; a button press wants the table
# as it is now, so the queue is kept to one frame and that one is dropped before each read.
STALE_FRAMES = 1


class WebcamSource(SourceBase):
    """A camera OpenCV can open by number (``/dev/videoN`` on Linux)."""

    kind = "webcam"

    def __init__(
        self,
        spec: str,
        index: int = 0,
        *,
        size: tuple[int, int] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(spec, clock=clock)
        self.index = index
        self.size = size
        self._device: cv2.VideoCapture | None = None

    def _open(self) -> None:
        device = cv2.VideoCapture(self.index)
        self._device = device
        if not device.isOpened():
            raise CameraError(
                f"webcam {self.index} cannot be opened: there is no such camera, "
                "or another program is using it.",
                source=self.spec,
            )
        if self.size is not None:
            device.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            device.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        device.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def _capture(self, number: int) -> Picture:
        assert self._device is not None  # open() ran
        for _ in range(STALE_FRAMES):
            self._device.grab()
        ok, image = self._device.read()
        if not ok or image is None:
            raise CameraError(
                f"webcam {self.index} stopped giving pictures (unplugged?).", source=self.spec
            )
        return Picture(bgr_to_rgb(image), f"webcam {self.index} frame {number}")

    def _close(self) -> None:
        if self._device is not None:
            self._device.release()
            self._device = None

    def _details(self) -> dict[str, Any]:
        return {"device": self.index}


class VideoSource(SourceBase):
    """A video file, one frame per capture (``step`` frames apart); after the last frame it
    starts again from the first."""

    kind = "video"

    def __init__(
        self,
        spec: str,
        path: str,
        *,
        step: int = 1,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(spec, clock=clock)
        if step < 1:
            raise BadSpecError(f"the step for '{spec}' must be 1 or more, not {step}.", spec=spec)
        self.path = Path(path).expanduser()
        self.step = step
        self._device: cv2.VideoCapture | None = None
        self._position = -1  # the file's frame last shown
        self._loops = 0

    def _start(self) -> cv2.VideoCapture:
        device = cv2.VideoCapture(str(self.path))
        self._device = device
        self._position = -1
        if not device.isOpened():
            raise CameraError(
                f"the video {self.path} cannot be played: OpenCV cannot decode it.",
                source=self.spec,
            )
        return device

    def _open(self) -> None:
        if not self.path.is_file():
            raise CameraError(f"there is no video file {self.path}.", source=self.spec)
        self._start()

    def _next(self) -> tuple[bool, Any]:
        assert self._device is not None  # open() ran
        for _ in range(self.step - 1):
            if not self._device.grab():
                return False, None
            self._position += 1
        ok, image = self._device.read()
        if ok and image is not None:
            self._position += 1
        return ok and image is not None, image

    def _capture(self, number: int) -> Picture:
        ok, image = self._next()
        if not ok:
            # The end of the file. Seeking back is not reliable for every codec; opening the
            # file again is.
            self._close()
            self._start()
            self._loops += 1
            log.debug("video %s: from the start again", self.path)
            ok, image = self._next()
            if not ok:
                raise CameraError(
                    f"the video {self.path} has no frames OpenCV can read.", source=self.spec
                )
        return Picture(bgr_to_rgb(image), f"{self.path} frame {self._position}")

    def _close(self) -> None:
        if self._device is not None:
            self._device.release()
            self._device = None

    def _details(self) -> dict[str, Any]:
        return {"path": str(self.path), "position": self._position, "loops": self._loops}

"""The Raspberry Pi camera through picamera2: full-resolution stills, autofocus before each
one where the lens has it (Camera Module 3), and optionally the exposure held still.

``picamera2`` is imported here and only when a Pi camera is opened or looked for: on a Pi it
comes from Raspberry Pi OS (``sudo apt install python3-picamera2``) with the libcamera bindings
it needs, and it is never a pip requirement. Nothing in this module is tested on a real Pi
camera by the test suite; the tests drive it through a fake ``picamera2`` package.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import cv2

from scanner.camera.errors import CameraError
from scanner.camera.source import Picture, SourceBase

log = logging.getLogger(__name__)

INSTALL_HINT = "on Raspberry Pi OS: sudo apt install python3-picamera2"
# picamera2 names formats after libcamera's DRM fourccs, which count bytes from the top of
# a little-endian word: "RGB888" frames hold each pixel as B, G, R in memory (OpenCV's order)
# and "BGR888" as R, G, B (picamera2 manual, appendix A). We ask for the commonly used
# "RGB888" and turn it round in exactly one place, _to_rgb.
STILL_FORMAT = "RGB888"
# Automatic exposure needs a few frames after start to settle; they are thrown away so that
# the first capture (and the exposure a lock takes from it) is not too dark.
SETTLE_FRAMES = 4


def _to_rgb(frame: Any) -> Any:
    """A ``STILL_FORMAT`` frame (B, G, R in memory) as RGB."""
    return cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)


def _import_picamera2(source: str) -> Any:
    try:
        from picamera2 import Picamera2
    except ImportError as error:
        raise CameraError(
            f"no Raspberry Pi camera found: the picamera2 library is not installed here "
            f"({error}); {INSTALL_HINT}.",
            source=source,
        ) from error
    return Picamera2


def camera_available() -> bool:
    """Whether picamera2 imports here and sees at least one camera."""
    try:
        from picamera2 import Picamera2

        return bool(Picamera2.global_camera_info())
    except ModuleNotFoundError:
        return False
    except Exception:
        # A broken install (libcamera missing, a numpy that picamera2's compiled helpers were
        # not built against) is worth a warning: the player may expect the Pi camera.
        log.warning("picamera2 is installed but cannot list cameras", exc_info=True)
        return False


class Picamera2Source(SourceBase):
    """Camera ``camera_num`` of ``Picamera2.global_camera_info()``.

    ``size`` asks for a still size (default: the sensor's full resolution). With
    ``lock_exposure`` the exposure time and gain metered for the first capture are kept for
    every later one, so that a lamp's glare does not change between frames being compared;
    reopening the camera meters again."""

    kind = "picamera2"

    def __init__(
        self,
        spec: str,
        camera_num: int = 0,
        *,
        lock_exposure: bool = False,
        size: tuple[int, int] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(spec, clock=clock)
        self.camera_num = camera_num
        self.lock_exposure = lock_exposure
        self.size = size
        self._camera: Any = None
        self._info: dict[str, Any] = {}
        self._autofocus = False
        self._locked: dict[str, Any] | None = None

    def _open(self) -> None:
        picamera2 = _import_picamera2(self.spec)
        cameras = picamera2.global_camera_info()
        if not cameras:
            raise CameraError(
                "no Raspberry Pi camera found: libcamera sees no camera "
                "(is the ribbon cable seated, the right way round?).",
                source=self.spec,
            )
        if self.camera_num >= len(cameras):
            raise CameraError(
                f"no Raspberry Pi camera found: there is no camera {self.camera_num}, "
                f"only {len(cameras)} ({', '.join(str(c.get('Model', '?')) for c in cameras)}).",
                source=self.spec,
            )
        self._info = dict(cameras[self.camera_num])
        main: dict[str, Any] = {"format": STILL_FORMAT}
        if self.size is not None:
            main["size"] = tuple(self.size)
        # picamera2 reports every failure as a bare RuntimeError (or worse); all of them mean
        # the same to a player: the camera would not start.
        try:
            self._camera = picamera2(self.camera_num)
            self._camera.configure(self._camera.create_still_configuration(main=main))
            self._camera.start()
            for _ in range(SETTLE_FRAMES):
                self._camera.capture_metadata()
        except Exception as error:
            raise CameraError(
                f"the Raspberry Pi camera {self.camera_num} would not start ({error}); "
                "is another program using it?",
                source=self.spec,
            ) from error
        self._autofocus = "AfMode" in self._camera.camera_controls
        self._locked = None

    def _capture(self, number: int) -> Picture:
        camera = self._camera
        try:
            if self._autofocus and not camera.autofocus_cycle():
                log.warning("Pi camera %d: autofocus did not settle", self.camera_num)
            (frame,), metadata = camera.capture_arrays(["main"])
            if self.lock_exposure and self._locked is None:
                self._lock_exposure(metadata)
        except Exception as error:
            raise CameraError(
                f"the Raspberry Pi camera {self.camera_num} stopped giving pictures ({error}).",
                source=self.spec,
            ) from error
        return Picture(_to_rgb(frame), f"Pi camera {self.camera_num} picture {number}")

    def _lock_exposure(self, metadata: dict[str, Any]) -> None:
        wanted = ("AeEnable", "ExposureTime", "AnalogueGain")
        missing = [name for name in wanted if name not in self._camera.camera_controls]
        if missing or "ExposureTime" not in metadata or "AnalogueGain" not in metadata:
            log.warning(
                "Pi camera %d: exposure cannot be locked (controls missing: %s)",
                self.camera_num,
                ", ".join(missing) or "none; metadata lacks the exposure",
            )
            self._locked = {}
            return
        self._locked = {
            "AeEnable": False,
            "ExposureTime": int(metadata["ExposureTime"]),
            "AnalogueGain": float(metadata["AnalogueGain"]),
        }
        self._camera.set_controls(self._locked)
        log.info("Pi camera %d: exposure locked at %s", self.camera_num, self._locked)

    def _close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()

    def _details(self) -> dict[str, Any]:
        return {
            "camera": self.camera_num,
            "model": self._info.get("Model"),
            "autofocus": self._autofocus,
            "exposure_locked": self._locked,
        }

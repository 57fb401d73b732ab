"""A fake ``picamera2`` for tests off a Raspberry Pi: the part of ``Picamera2`` that
``scanner.camera.picamera2_source`` uses, recording every call.

Nothing is attached until a test says so::

    picamera2.attach(picture, autofocus=True)   # picture: RGB uint8 [H, W, 3]

Frames come back in the memory order picamera2 gives for the format asked: "RGB888" as
B, G, R and "BGR888" as R, G, B (picamera2 manual, appendix A). The test fixture imports this
package afresh for every test and removes it from ``sys.modules`` afterwards, so the state
below lives exactly one test.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .controls import AUTOFOCUS_CONTROLS, COMMON_CONTROLS, AfModeEnum, AfTriggerEnum, check


@dataclass
class Rig:
    """What is plugged in, and how it behaves."""

    cameras: list[dict] = field(default_factory=list)  # what global_camera_info() lists
    picture: np.ndarray | None = None  # the scene, RGB
    autofocus: bool = False
    focus_succeeds: bool = True
    busy: bool = False  # another process holds the camera: Picamera2() fails
    fail_captures: int = 0  # this many captures fail before the camera answers again
    exposure: tuple[int, float] = (20000, 2.0)  # (ExposureTime µs, AnalogueGain) metered


RIG = Rig()
instances: list[FakePicamera2] = []


def attach(
    picture: np.ndarray, *, model: str = "imx708", autofocus: bool = False, count: int = 1
) -> None:
    """Plug in ``count`` cameras of ``model`` that all see ``picture``."""
    RIG.cameras = [
        {"Model": model, "Location": 2, "Rotation": 0, "Id": f"/base/fake/{model}@{n}", "Num": n}
        for n in range(count)
    ]
    RIG.picture = picture
    RIG.autofocus = autofocus


class FakePicamera2:
    """Records each call as ``(name, argument)`` in ``calls``."""

    @staticmethod
    def global_camera_info() -> list[dict]:
        return [dict(camera) for camera in RIG.cameras]

    def __init__(self, camera_num: int = 0) -> None:
        camera_num = self.global_camera_info()[camera_num]["Num"]  # IndexError, as the real one
        if RIG.busy:
            raise RuntimeError("Camera __init__ sequence did not complete.")
        self.camera_num = camera_num
        self.calls: list[tuple[str, object]] = []
        self.camera_controls = dict(COMMON_CONTROLS)
        if RIG.autofocus:
            self.camera_controls |= AUTOFOCUS_CONTROLS
        self.controls: dict = {}
        self.config: dict | None = None
        self.started = False
        self.closed = False
        instances.append(self)

    def create_still_configuration(self, main: dict | None = None, **options) -> dict:
        self.calls.append(("create_still_configuration", main))
        assert RIG.picture is not None
        height, width = RIG.picture.shape[:2]
        stream = {"format": "BGR888", "size": (width, height)} | (main or {})
        return {"use_case": "still", "buffer_count": 1, "main": stream, **options}

    def configure(self, config: dict) -> None:
        assert not self.started, "Camera must be stopped before configuring"
        self.calls.append(("configure", config))
        self.config = config

    def start(self) -> None:
        assert self.config is not None, "Camera has not been configured"
        self.calls.append(("start", None))
        self.started = True

    def stop(self) -> None:
        self.calls.append(("stop", None))
        self.started = False

    def close(self) -> None:
        self.calls.append(("close", None))
        self.closed = True

    def set_controls(self, controls: dict) -> None:
        check(controls, self.camera_controls)
        self.calls.append(("set_controls", dict(controls)))
        self.controls |= controls

    def autofocus_cycle(self) -> bool:
        assert self.started, "Camera is not started"
        self.set_controls({"AfMode": AfModeEnum.Auto, "AfTrigger": AfTriggerEnum.Start})
        self.calls.append(("autofocus_cycle", None))
        return RIG.focus_succeeds

    def _metadata(self) -> dict:
        exposure, gain = RIG.exposure
        if self.controls.get("AeEnable") is False:
            exposure, gain = self.controls["ExposureTime"], self.controls["AnalogueGain"]
        return {"ExposureTime": exposure, "AnalogueGain": gain, "SensorTimestamp": len(self.calls)}

    def capture_metadata(self) -> dict:
        assert self.started, "Camera is not started"
        self.calls.append(("capture_metadata", None))
        return self._metadata()

    def capture_arrays(self, names: list[str] | None = None) -> tuple[list[np.ndarray], dict]:
        assert self.started, "Camera is not started"
        names = names or ["main"]
        self.calls.append(("capture_arrays", list(names)))
        if RIG.fail_captures > 0:
            RIG.fail_captures -= 1
            raise RuntimeError("Camera frontend has timed out!")
        assert self.config is not None and RIG.picture is not None
        order = {"RGB888": [2, 1, 0], "BGR888": [0, 1, 2]}[self.config["main"]["format"]]
        frame = np.ascontiguousarray(RIG.picture[..., order])
        return [frame for _ in names], self._metadata()


Picamera2 = FakePicamera2

"""The controls the fake camera knows, with libcamera's names and the enums its autofocus uses
(on a Pi these come from ``libcamera.controls``)."""

from __future__ import annotations

from enum import IntEnum


class AfModeEnum(IntEnum):
    Manual = 0
    Auto = 1
    Continuous = 2


class AfTriggerEnum(IntEnum):
    Start = 0
    Cancel = 1


class AfStateEnum(IntEnum):
    Idle = 0
    Scanning = 1
    Focused = 2
    Failed = 3


# name → (min, max, default), the shape of Picamera2.camera_controls
COMMON_CONTROLS: dict[str, tuple] = {
    "AeEnable": (False, True, True),
    "ExposureTime": (26, 112015443, 20000),
    "AnalogueGain": (1.0, 16.0, 1.0),
    "AwbEnable": (False, True, True),
    "ColourGains": (0.0, 32.0, None),
}
AUTOFOCUS_CONTROLS: dict[str, tuple] = {
    "AfMode": (AfModeEnum.Manual, AfModeEnum.Continuous, AfModeEnum.Manual),
    "AfTrigger": (AfTriggerEnum.Start, AfTriggerEnum.Cancel, AfTriggerEnum.Start),
    "LensPosition": (0.0, 15.0, 1.0),
}


def check(controls: dict, advertised: dict) -> None:
    """Raise as libcamera does for a control this camera does not have."""
    for name in controls:
        if name not in advertised:
            raise RuntimeError(f"Control {name} is not advertised by libcamera")

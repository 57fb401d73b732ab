"""The Raspberry Pi camera source, driven through the fake ``picamera2`` in tests/fakes: still
configuration, autofocus, exposure lock, colour order, and the plain errors when there is no
camera. Plus: picamera2 is imported only when that camera is used."""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scanner.camera import CameraError, ReliableSource, default_spec, open_source

FAKES = Path(__file__).resolve().parents[1] / "fakes"
ROOT = Path(__file__).resolve().parents[2]


def forget_picamera2() -> None:
    for name in [n for n in sys.modules if n == "picamera2" or n.startswith("picamera2.")]:
        del sys.modules[name]


@pytest.fixture
def picamera2(monkeypatch):
    """The fake picamera2 package, imported afresh (so its state lives one test)."""
    monkeypatch.syspath_prepend(str(FAKES))
    forget_picamera2()
    module = importlib.import_module("picamera2")
    assert Path(module.__file__).is_relative_to(FAKES)
    yield module
    forget_picamera2()


def table_picture() -> np.ndarray:
    """RGB: a red, a green and a blue block on grey."""
    image = np.full((96, 128, 3), 120, np.uint8)
    image[:32, :32] = (255, 0, 0)
    image[32:64, :32] = (0, 255, 0)
    image[64:, :32] = (0, 0, 255)
    return image


def calls(camera, name: str) -> list:
    return [argument for call, argument in camera.calls if call == name]


def test_importing_the_camera_package_does_not_import_picamera2():
    code = (
        "import sys, scanner.camera as c; c.open_source('picamera2'); "
        "print('picamera2' in sys.modules)"
    )
    environment = os.environ | {"PYTHONPATH": os.pathsep.join([str(FAKES), str(ROOT)])}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    assert result.stdout.strip() == "False"


def test_a_still_in_rgb_from_a_full_resolution_still_configuration(picamera2):
    picamera2.attach(table_picture())
    with open_source("picamera2") as source:
        frame = source.capture()
    assert np.array_equal(frame.image, table_picture())  # "RGB888" is B, G, R: turned round
    assert frame.image.flags.c_contiguous
    assert (frame.name, frame.source, frame.truth) == ("Pi camera 0 picture 0", "picamera2", None)
    (camera,) = picamera2.instances
    assert calls(camera, "create_still_configuration") == [{"format": "RGB888"}]  # full size
    names = [call for call, _ in camera.calls]
    assert names.index("configure") < names.index("start") < names.index("capture_arrays")
    assert names[-2:] == ["stop", "close"] and camera.closed


def test_a_size_is_asked_for(picamera2):
    picamera2.attach(table_picture())
    open_source("picamera2", size=(2304, 1296)).capture()
    (camera,) = picamera2.instances
    assert calls(camera, "create_still_configuration") == [
        {"format": "RGB888", "size": (2304, 1296)}
    ]


def test_autofocus_runs_before_each_capture_when_the_lens_has_it(picamera2):
    picamera2.attach(table_picture(), autofocus=True)
    source = open_source("picamera2")
    source.capture()
    source.capture()
    (camera,) = picamera2.instances
    names = [call for call, _ in camera.calls]
    assert names.count("autofocus_cycle") == 2
    focus = [i for i, name in enumerate(names) if name == "autofocus_cycle"]
    takes = [i for i, name in enumerate(names) if name == "capture_arrays"]
    assert focus[0] < takes[0] < focus[1] < takes[1]
    assert source.describe()["autofocus"] is True


def test_no_autofocus_without_the_control(picamera2):
    picamera2.attach(table_picture(), autofocus=False)
    source = open_source("picamera2")
    source.capture()
    (camera,) = picamera2.instances
    assert "autofocus_cycle" not in [call for call, _ in camera.calls]
    assert source.describe()["autofocus"] is False


def test_a_focus_that_fails_still_gives_the_picture(picamera2, caplog):
    picamera2.attach(table_picture(), autofocus=True)
    picamera2.RIG.focus_succeeds = False
    assert open_source("picamera2").capture().number == 0
    assert "autofocus did not settle" in caplog.text


def test_lock_exposure_keeps_what_the_first_capture_metered(picamera2):
    picamera2.attach(table_picture())
    picamera2.RIG.exposure = (33000, 3.5)
    source = open_source("picamera2", lock_exposure=True)
    source.capture()
    (camera,) = picamera2.instances
    locked = {"AeEnable": False, "ExposureTime": 33000, "AnalogueGain": 3.5}
    assert calls(camera, "set_controls") == [locked]
    picamera2.RIG.exposure = (8000, 1.0)  # the room got brighter: the lock holds
    source.capture()
    assert calls(camera, "set_controls") == [locked]
    assert camera.capture_metadata()["ExposureTime"] == 33000
    assert source.describe()["exposure_locked"] == locked


def test_without_lock_exposure_the_camera_keeps_metering(picamera2):
    picamera2.attach(table_picture())
    source = open_source("picamera2")
    source.capture()
    source.capture()
    assert calls(picamera2.instances[0], "set_controls") == []
    assert source.describe()["exposure_locked"] is None


def test_no_camera_attached_is_a_plain_camera_error(picamera2):
    source = open_source("picamera2")
    with pytest.raises(CameraError, match=r"^no Raspberry Pi camera found: libcamera sees no"):
        source.capture()
    assert not source.is_open and picamera2.instances == []


def test_a_camera_number_that_is_not_there(picamera2):
    picamera2.attach(table_picture(), model="imx219")
    with pytest.raises(CameraError, match="no camera 1, only 1 \\(imx219\\)"):
        open_source("picamera2:1").capture()
    picamera2.attach(table_picture(), count=2)
    assert open_source("picamera2:1").capture().name == "Pi camera 1 picture 0"


def test_a_busy_camera_is_a_plain_camera_error(picamera2):
    picamera2.attach(table_picture())
    picamera2.RIG.busy = True
    with pytest.raises(CameraError, match=r"would not start .* another program"):
        open_source("picamera2").capture()


def test_without_the_library_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail
    with pytest.raises(CameraError, match=r"^no Raspberry Pi camera found: .*apt install"):
        open_source("picamera2").capture()


def test_a_camera_that_stops_answering_comes_back_when_reopened(picamera2):
    picamera2.attach(table_picture())
    source = ReliableSource(open_source("picamera2"), sleep=lambda seconds: None)
    source.capture()
    picamera2.RIG.fail_captures = 2
    frame = source.capture()
    assert frame.number == 1 and len(picamera2.instances) == 3  # opened anew after each failure
    assert all(camera.closed for camera in picamera2.instances[:2])
    assert "stopped giving pictures" in source.describe()["last_error"]


def test_default_spec_is_the_pi_camera_only_when_one_is_attached(picamera2):
    assert default_spec() == "synthetic"
    picamera2.attach(table_picture())
    assert default_spec() == "picamera2"

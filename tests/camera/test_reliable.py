"""ReliableSource: a camera that fails is closed, reopened and tried again, and gives up with
one plain error; a camera that comes back gives frames again."""

import json
import logging

import numpy as np
import pytest

from scanner.camera import CameraError, ReliableSource
from scanner.camera.source import Picture, SourceBase


class Flaky(SourceBase):
    """Fails its next ``failures`` captures (or opens), then works; counts opens and closes."""

    kind = "flaky"

    def __init__(self, failures: int = 0, *, fail_on_open: bool = False) -> None:
        super().__init__("flaky:0")
        self.failures, self.fail_on_open = failures, fail_on_open
        self.opened = self.closed = 0

    def _open(self) -> None:
        self.opened += 1
        if self.fail_on_open and self.failures > 0:
            self.failures -= 1
            raise CameraError("the flaky camera is unplugged", source=self.spec)

    def _capture(self, number: int) -> Picture:
        if self.failures > 0:
            self.failures -= 1
            raise CameraError(f"the flaky camera dropped frame {number}", source=self.spec)
        return Picture(np.zeros((4, 4, 3), np.uint8), f"flaky {number}")

    def _close(self) -> None:
        self.closed += 1


class Naps:
    """A sleep that only remembers how long it was asked to wait."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.mark.parametrize("fail_on_open", [False, True])
def test_two_failures_then_a_frame(fail_on_open, caplog):
    inner, naps = Flaky(2, fail_on_open=fail_on_open), Naps()
    source = ReliableSource(inner, attempts=3, wait_s=0.5, sleep=naps)
    with caplog.at_level(logging.WARNING):
        frame = source.capture()
    assert frame.name == "flaky 0" and frame.source == "flaky:0"
    assert naps.waits == [0.5, 0.5]
    assert inner.opened == 3 and source.is_open
    assert caplog.text.count("flaky:0 failed") == 2 and "try 2 of 3" in caplog.text
    state = source.describe()
    assert (state["failures"], state["recoveries"], state["gave_up"]) == (2, 1, 0)
    assert state["kind"] == "flaky" and "flaky camera" in state["last_error"]
    json.dumps(state)


def test_giving_up_after_every_try_carries_the_last_error():
    inner, naps = Flaky(10), Naps()
    source = ReliableSource(inner, sleep=naps)
    with pytest.raises(CameraError) as caught:
        source.capture()
    message = str(caught.value)
    assert message.startswith("the camera 'flaky:0' stopped answering after 3 tries: ")
    assert message.endswith("dropped frame 0")
    assert isinstance(caught.value.__cause__, CameraError) and caught.value.source == "flaky:0"
    assert naps.waits == [0.5, 0.5] and inner.closed == 3 and not source.is_open
    assert source.describe()["gave_up"] == 1


def test_a_camera_that_comes_back_gives_frames_again():
    inner = Flaky(4)
    source = ReliableSource(inner, attempts=2, sleep=Naps())
    for _ in range(2):
        with pytest.raises(CameraError):
            source.capture()
    assert [source.capture().number for _ in range(2)] == [0, 1]
    assert source.describe()["failures"] == 4 and source.describe()["frames"] == 2


def test_a_healthy_camera_never_waits():
    naps = Naps()
    with ReliableSource(Flaky(), sleep=naps) as source:
        assert [source.capture().number for _ in range(3)] == [0, 1, 2]
    assert naps.waits == [] and not source.is_open


def test_attempts_must_be_positive():
    with pytest.raises(ValueError, match="attempts"):
        ReliableSource(Flaky(), attempts=0)

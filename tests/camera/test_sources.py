"""Frame sources for real: image files, OpenCV on a video file the test writes, a webcam that
is not there, the spec parser, and what every source promises (counts, errors, describe)."""

import json
import logging
import os
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.camera import (
    SOURCE_HELP,
    BadSpecError,
    CameraError,
    Frame,
    FrameSource,
    SourceBase,
    default_spec,
    open_source,
    parse_spec,
)
from scanner.camera.source import Picture
from scanner.camera.specs import FORMS, Spec

SIZE = (64, 48)


def picture(colour: tuple[int, int, int], size: tuple[int, int] = SIZE) -> np.ndarray:
    """An RGB picture of one colour with a red square in its top-left corner."""
    image = np.full((size[1], size[0], 3), colour, np.uint8)
    image[:8, :8] = (255, 0, 0)
    return image


def write_rgb(path: Path, image: np.ndarray) -> Path:
    assert cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Three PNGs written out of name order, plus a file that is not an image."""
    for name, colour in (("b.png", (0, 200, 0)), ("c.png", (0, 0, 200)), ("a.png", (90, 90, 90))):
        write_rgb(tmp_path / name, picture(colour))
    (tmp_path / "notes.txt").write_text("not a picture")
    return tmp_path


# ---- image files ---------------------------------------------------------------------------


def test_one_image_is_shown_in_rgb_every_time(tmp_path):
    path = write_rgb(tmp_path / "table.png", picture((10, 20, 30)))
    with open_source(f"files:{path}") as source:
        first, second = source.capture(), source.capture()
    assert isinstance(first, Frame)
    assert np.array_equal(first.image, picture((10, 20, 30)))  # red stays red: RGB order
    assert first.image.flags.c_contiguous and first.image.dtype == np.uint8
    assert (first.name, first.number, second.number) == (str(path), 0, 1)
    assert first.source == f"files:{path}" and first.truth is None


def test_a_folder_is_shown_in_name_order_and_cycled(folder):
    source = open_source(f"files:{folder}")
    names = [Path(source.capture().name).name for _ in range(4)]
    assert names == ["a.png", "b.png", "c.png", "a.png"]
    assert source.describe()["images"] == 3


def test_a_bare_folder_or_glob_is_files_too(folder):
    assert parse_spec(str(folder)) == Spec("files", str(folder))
    source = open_source(str(folder / "[bc].png"))
    assert [Path(source.capture().name).name for _ in range(3)] == ["b.png", "c.png", "b.png"]


def test_a_glob_takes_only_the_images_it_matches(folder):
    source = open_source(f"files:{folder}/*")
    assert [Path(source.capture().name).name for _ in range(3)] == ["a.png", "b.png", "c.png"]


def test_a_corrupt_file_is_named_and_the_next_capture_goes_on(folder):
    bad = folder / "b.png"
    bad.write_bytes(b"\x89PNG but not really")
    source = open_source(f"files:{folder}")
    assert Path(source.capture().name).name == "a.png"
    with pytest.raises(CameraError, match=r"b\.png") as caught:
        source.capture()
    assert caught.value.source == f"files:{folder}"
    after = source.capture()
    assert Path(after.name).name == "c.png"
    assert after.number == 1  # only frames given are counted
    state = source.describe()
    assert "b.png" in state["last_error"] and state["frames"] == 2 and state["open"]


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("missing.png", "no file or folder"),
        ("empty", "holds no images"),
        ("*.jpg", "matches nothing"),
        ("empty/*", "matches nothing"),
    ],
)
def test_no_pictures_is_a_camera_error(tmp_path, where, words):
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("x")
    source = open_source(f"files:{tmp_path / where}")
    with pytest.raises(CameraError, match=words):
        source.capture()
    assert not source.is_open and source.describe()["last_error"]


# ---- a video file --------------------------------------------------------------------------


def write_video(path: Path, count: int) -> list[np.ndarray]:
    """An MJPG video of ``count`` frames, frame k of grey level 20 + 40k with a red corner."""
    frames = [picture((20 + 40 * k,) * 3, (160, 120)) for k in range(count)]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    assert writer.isOpened()
    for frame in frames:
        writer.write(cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))
    writer.release()
    return frames


def grey_level(frame: Frame) -> float:
    return float(frame.image[40:, 40:].mean())


def test_a_video_plays_frame_by_frame_and_starts_again(tmp_path):
    path = tmp_path / "game.avi"
    frames = write_video(path, 4)
    with open_source(f"video:{path}") as source:
        shown = [source.capture() for _ in range(6)]
        assert source.describe()["loops"] == 1
    levels = [grey_level(frame) for frame in shown]
    expected = [grey_level(Frame(frames[k % 4], "", 0, 0.0, "")) for k in range(6)]
    assert np.allclose(levels, expected, atol=4)
    assert [frame.name for frame in shown[:2]] == [f"{path} frame 0", f"{path} frame 1"]
    assert shown[4].name == f"{path} frame 0" and shown[5].number == 5
    red = shown[0].image[2:6, 2:6].mean(axis=(0, 1))
    assert red[0] > 200 and red[1] < 60 and red[2] < 60  # BGR from OpenCV turned into RGB


def test_a_bare_video_path_and_a_step(tmp_path):
    path = tmp_path / "game.avi"
    write_video(path, 5)
    assert parse_spec(str(path)).kind == "video"
    source = open_source(str(path), step=2)
    assert [source.capture().name.rsplit(" ", 1)[1] for _ in range(4)] == ["1", "3", "1", "3"]


def test_a_missing_or_broken_video_is_a_camera_error(tmp_path):
    with pytest.raises(CameraError, match="no video file"):
        open_source(f"video:{tmp_path / 'gone.mp4'}").capture()
    broken = tmp_path / "broken.avi"
    broken.write_bytes(b"this is no video")
    with pytest.raises(CameraError, match=r"broken\.avi"):
        open_source(f"video:{broken}").capture()


# ---- a webcam that is not there ------------------------------------------------------------


def test_a_webcam_that_does_not_exist_is_a_camera_error():
    number = 63
    assert not os.path.exists(f"/dev/video{number}")
    source = open_source(f"webcam:{number}")  # building it touches nothing
    assert not source.is_open
    with pytest.raises(CameraError, match=f"webcam {number} cannot be opened") as caught:
        source.capture()
    assert caught.value.source == f"webcam:{number}"
    assert source.describe() | {"last_error": None} == {
        "spec": f"webcam:{number}",
        "kind": "webcam",
        "open": False,
        "frames": 0,
        "last_error": None,
        "device": number,
    }
    source.close()  # nothing to close: still fine


# ---- specs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "kind", "argument"),
    [
        ("picamera2", "picamera2", None),
        ("picamera2:1", "picamera2", "1"),
        ("webcam", "webcam", None),
        ("webcam:2", "webcam", "2"),
        ("video:clips/a game.mkv", "video", "clips/a game.mkv"),
        ("night.MOV", "video", "night.MOV"),
        ("files:shots/*.jpg", "files", "shots/*.jpg"),
        ("table.jpg", "files", "table.jpg"),
        ("synthetic", "synthetic", None),
        ("synthetic:7", "synthetic", "7"),
    ],
)
def test_spec_forms(spec, kind, argument):
    assert parse_spec(spec) == Spec(kind, argument)
    assert open_source(spec).spec == spec


@pytest.mark.parametrize(
    "spec", ["", "webcm", "webcam:", "webcam:front", "picamera2:-1", "files:", "video", "x.txt"]
)
def test_a_bad_spec_names_itself_and_lists_the_forms(spec):
    with pytest.raises(BadSpecError) as caught:
        open_source(spec)
    message = str(caught.value)
    assert f"'{spec}'" in message and all(form in message for form in FORMS)
    assert isinstance(caught.value, CameraError) and caught.value.spec == spec


def test_options_are_checked_against_the_kind():
    with pytest.raises(BadSpecError, match="takes no option lock_exposure"):
        open_source("webcam", lock_exposure=True)
    with pytest.raises(BadSpecError, match=r"\(width, height\)"):
        open_source("synthetic", size=640)
    with pytest.raises(BadSpecError, match="deck must be one of"):
        open_source("synthetic", deck="tarot")
    with pytest.raises(BadSpecError, match=r"step for 'x\.mp4' must be 1 or more"):
        open_source("x.mp4", step=0)
    assert open_source("picamera2:1", lock_exposure=True, size=[2304, 1296]).size == (2304, 1296)


def test_the_help_names_every_kind():
    for kind in ("picamera2", "webcam", "video:PATH", "files:PATH", "synthetic"):
        assert kind in SOURCE_HELP


def test_without_picamera2_the_default_is_synthetic(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail
    assert default_spec() == "synthetic"


# ---- what every source promises -----------------------------------------------------------


class Scripted(SourceBase):
    """A source that hands back whatever the test queues, and counts opens and closes."""

    kind = "scripted"

    def __init__(self, images: list, *, close_fails: bool = False) -> None:
        super().__init__("scripted", clock=lambda: 1234.5)
        self.images, self.close_fails = images, close_fails
        self.opened = self.closed = 0

    def _open(self) -> None:
        self.opened += 1

    def _capture(self, number: int) -> Picture:
        return Picture(self.images.pop(0), f"scripted {number}")

    def _close(self) -> None:
        self.closed += 1
        if self.close_fails:
            raise OSError("the device is gone")


def test_open_and_close_are_idempotent_and_the_context_manager_uses_them():
    source = Scripted([picture((1, 2, 3))])
    with source as same:
        assert same is source and source.is_open
        source.open()
        frame = source.capture()
    source.close()
    assert (source.opened, source.closed, source.is_open) == (1, 1, False)
    assert frame.captured_at == 1234.5 and "scripted 0" in repr(frame)
    assert isinstance(source, FrameSource)


@pytest.mark.parametrize(
    "broken",
    [
        np.zeros((4, 4), np.uint8),
        np.zeros((4, 4, 4), np.uint8),
        np.zeros((4, 4, 3), np.float32),
        np.zeros((0, 4, 3), np.uint8),
        None,
    ],
)
def test_a_broken_picture_is_never_handed_on(broken):
    source = Scripted([broken, picture((1, 2, 3))])
    with pytest.raises(CameraError, match="broken picture"):
        source.capture()
    assert source.capture().number == 0


def test_a_non_contiguous_picture_is_made_contiguous():
    wide = np.zeros((8, 16, 3), np.uint8)
    frame = Scripted([wide[:, ::2]]).capture()
    assert frame.image.flags.c_contiguous and frame.image.shape == (8, 8, 3)


def test_close_never_raises_and_logs_instead(caplog):
    source = Scripted([], close_fails=True)
    source.open()
    with caplog.at_level(logging.WARNING):
        source.close()
    assert "did not close cleanly" in caplog.text and not source.is_open


def test_describe_is_json(folder):
    source = open_source(f"files:{folder}")
    source.capture()
    state = json.loads(json.dumps(source.describe()))
    assert state["spec"] == f"files:{folder}" and state["kind"] == "files"
    assert (state["open"], state["frames"], state["last_error"]) == (True, 1, None)

"""``--camera`` values: what each names, how to build the source, and which to use by default.

>>> parse_spec("webcam:2")
Spec(kind='webcam', argument='2')
>>> parse_spec("games/night.mp4")
Spec(kind='video', argument='games/night.mp4')
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any

from scanner.camera.errors import BadSpecError
from scanner.camera.files_source import GLOB_CHARACTERS, FilesSource, is_image_name
from scanner.camera.opencv_source import VIDEO_SUFFIXES, VideoSource, WebcamSource
from scanner.camera.picamera2_source import Picamera2Source, camera_available
from scanner.camera.source import FrameSource
from scanner.camera.synthetic_source import SyntheticSource

log = logging.getLogger(__name__)

KINDS = ("picamera2", "webcam", "video", "files", "synthetic")
FORMS = (
    "picamera2",
    "picamera2:N",
    "webcam",
    "webcam:N",
    "video:PATH",
    "PATH.mp4 (.avi .mkv .mov .webm)",
    "files:PATH",
    "synthetic",
    "synthetic:SEED",
)
# The keyword options each kind takes from open_source(spec, **options).
OPTIONS: dict[str, tuple[str, ...]] = {
    "picamera2": ("lock_exposure", "size"),
    "webcam": ("size",),
    "video": ("step",),
    "files": (),
    "synthetic": ("size", "deck", "split", "layout"),
}

SOURCE_HELP = (
    "Where pictures come from. 'picamera2' or 'picamera2:N': the Raspberry Pi camera (number N, "
    "default 0), full-resolution stills with autofocus where the lens has it. 'webcam' or "
    "'webcam:N': a USB webcam (OpenCV device N, default 0). 'video:PATH', or just a path "
    f"ending in {' '.join(VIDEO_SUFFIXES)}: a video file, one frame per picture, played in a "
    "loop. 'files:PATH': an image, a folder of images (in name order) or a glob such as "
    "'shots/*.jpg', one per picture, in a loop. 'synthetic' or 'synthetic:SEED': rendered "
    "tables, no camera needed: one side's melds seen from above, as on a real table (laying a "
    "new table can switch to a hand's leftover cards or to the busy training tables). "
    "Without this option: the Pi camera when one is connected, else 'synthetic'."
)


@dataclass(frozen=True)
class Spec:
    """A parsed ``--camera`` value: the kind of source and what follows the colon."""

    kind: str
    argument: str | None


def _bad(spec: str, why: str) -> BadSpecError:
    return BadSpecError(
        f"'{spec}' is not a camera ({why}); use one of: {', '.join(FORMS)}.", spec=spec
    )


def _bare_path(spec: str) -> Spec | None:
    """A spec without a kind: a video file by its suffix, or pictures by theirs."""
    lowered = spec.lower()
    if lowered.endswith(VIDEO_SUFFIXES):
        return Spec("video", spec)
    if (
        is_image_name(spec)
        or any(character in spec for character in GLOB_CHARACTERS)
        or os.path.isdir(os.path.expanduser(spec))
    ):
        return Spec("files", spec)
    return None


def parse_spec(spec: str) -> Spec:
    """What ``spec`` names; :class:`BadSpecError` listing the valid forms when nothing."""
    text = spec.strip()
    if not text:
        raise _bad(spec, "it is empty")
    kind, colon, argument = text.partition(":")
    if kind in KINDS:
        if colon and not argument:
            raise _bad(spec, f"nothing follows '{kind}:'")
        if kind in ("video", "files") and not argument:
            raise _bad(spec, f"'{kind}' needs a path: '{kind}:PATH'")
        if kind in ("picamera2", "webcam", "synthetic") and argument and not argument.isdigit():
            raise _bad(spec, f"'{argument}' is not a number")
        return Spec(kind, argument or None)
    bare = _bare_path(text)
    if bare is None:
        raise _bad(spec, "not a kind of camera, nor a video, image or folder")
    return bare


def _size(spec: str, value: Any) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in value)
    except (TypeError, ValueError):
        raise BadSpecError(
            f"the size for '{spec}' must be (width, height), not {value!r}.", spec=spec
        ) from None
    if width < 64 or height < 64:
        raise BadSpecError(f"the size for '{spec}' is too small: {width}×{height}.", spec=spec)
    return width, height


def open_source(spec: str, **options: Any) -> FrameSource:
    """The source ``spec`` names, built but not yet opened: the device or files are first
    touched by ``open()`` or the first ``capture()``. ``options`` are the kind's keyword
    options (see ``OPTIONS``); one the kind does not take is a :class:`BadSpecError`.

    >>> source = open_source("synthetic:7", size=(640, 480))
    >>> source.describe()["kind"], source.is_open
    ('synthetic', False)
    >>> open_source("synthetic:7", layout="leftovers").layout
    'leftovers'
    """
    parsed = parse_spec(spec)
    unknown = sorted(set(options) - set(OPTIONS[parsed.kind]))
    if unknown:
        takes = ", ".join(OPTIONS[parsed.kind]) or "none"
        raise BadSpecError(
            f"the camera '{spec}' takes no option {', '.join(unknown)} (it takes: {takes}).",
            spec=spec,
        )
    if "size" in options and options["size"] is not None:
        options["size"] = _size(spec, options["size"])
    number = int(parsed.argument) if parsed.argument and parsed.argument.isdigit() else 0
    if parsed.kind == "picamera2":
        return Picamera2Source(spec, number, **options)
    if parsed.kind == "webcam":
        return WebcamSource(spec, number, **options)
    if parsed.kind == "synthetic":
        return SyntheticSource(spec, number, **options)
    assert parsed.argument is not None  # parse_spec insists on a path for these two
    if parsed.kind == "video":
        return VideoSource(spec, parsed.argument, **options)
    return FilesSource(spec, parsed.argument, **options)


def default_spec() -> str:
    """``"picamera2"`` when a Raspberry Pi camera is usable here (picamera2 imports and lists
    at least one camera), else ``"synthetic"``."""
    if camera_available():
        return "picamera2"
    log.info("no Raspberry Pi camera here: using rendered tables")
    return "synthetic"

"""Pictures in and out of the service: a phone's photo checked and decoded before anything is
kept, frames encoded as JPEG for the game record."""

from __future__ import annotations

import cv2
import numpy as np

from scanner.service.errors import BadUpload
from scanner.service.said import Said

MAX_PIXELS = 50_000_000  # a 50-megapixel photo; anything larger is refused, not read slowly
MAX_SIDE = 20_000  # no phone's photo is wider; a header saying more is refused unread
MIN_SIDE = 64  # below this on a side no card could be read (and OpenCV's reduced decode fails)
JPEG_QUALITY = 88
NOT_A_PICTURE = "The upload is not a picture handfoot can read: send a JPEG, PNG or WebP photo."
# JPEG's start-of-frame markers (SOF0-SOF15 but DHT, JPG and DAC), where the size is written
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def picture_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as a JPEG, PNG or WebP file's header declares it, read without decoding
    a pixel; None when ``data`` is none of these or its header is cut short.

    >>> picture_size(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(4) + b"IHDR" + (640).to_bytes(4, "big")
    ...              + (480).to_bytes(4, "big"))
    (640, 480)
    >>> picture_size(b"GIF89a...") is None
    True
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            at += 2
            continue
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if marker in _SOF:
            height = int.from_bytes(data[at + 5 : at + 7], "big")
            width = int.from_bytes(data[at + 7 : at + 9], "big")
            return width, height
        if length < 2:
            return None
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    kind = data[12:16]
    if kind == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if kind == b"VP8 " and len(data) >= 30:
        return (
            int.from_bytes(data[26:28], "little") & 0x3FFF,
            int.from_bytes(data[28:30], "little") & 0x3FFF,
        )
    if kind == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def decode_upload(data: bytes) -> np.ndarray:
    """The photo in ``data`` as an RGB frame; :class:`BadUpload` when it is empty, not a
    picture, or absurdly large."""
    if not data:
        raise BadUpload(Said.of("upload_empty"))
    # The size comes from the header, before anything is decoded: a small file may declare a
    # picture that would take gigabytes to decode.
    size = picture_size(data)
    if size is None:
        raise BadUpload(Said.of("upload_not_picture"))
    width, height = size
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        raise BadUpload(Said.of("upload_too_large", width=width, height=height, side=MAX_SIDE))
    if min(width, height) < MIN_SIDE:
        raise BadUpload(Said.of("upload_too_small", width=width, height=height))
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    # a phone's photo is turned upright by its EXIF orientation, so the sides may swap
    if image is None or image.ndim != 3 or sorted(image.shape[:2]) != sorted(size):
        raise BadUpload(Said.of("upload_unusable"))
    return np.ascontiguousarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))


def encode_jpeg(image: np.ndarray) -> bytes:
    """An RGB frame as JPEG bytes."""
    ok, data = cv2.imencode(
        ".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]
    )
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 RGB frame
        raise BadUpload("The picture could not be encoded as JPEG.")
    return data.tobytes()

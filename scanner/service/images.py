"""Pictures in and out of the service: a phone's photo checked and decoded before anything is
kept, frames encoded as JPEG for the game record."""

from __future__ import annotations

import cv2
import numpy as np

from scanner.service.errors import BadUpload

MAX_PIXELS = 50_000_000  # a 50-megapixel photo; anything larger is refused, not read slowly
JPEG_QUALITY = 88


def decode_upload(data: bytes) -> np.ndarray:
    """The photo in ``data`` as an RGB frame; :class:`BadUpload` when it is empty, not a
    picture, or absurdly large."""
    if not data:
        raise BadUpload("The upload is empty: choose a photo of the table.")
    buffer = np.frombuffer(data, np.uint8)
    header = cv2.imdecode(buffer, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    if header is None:
        raise BadUpload(
            "The upload is not a picture handfoot can read: send a JPEG, PNG or WebP photo."
        )
    if header.shape[0] * header.shape[1] * 64 > MAX_PIXELS:
        raise BadUpload(
            f"The photo is too large ({header.shape[1] * 8}×{header.shape[0] * 8} pixels or "
            "more): send one of at most 50 megapixels."
        )
    image = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
    if image is None or image.ndim != 3 or min(image.shape[:2]) < 64:
        raise BadUpload("The upload is not a usable picture: send a photo of the table.")
    return np.ascontiguousarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))


def encode_jpeg(image: np.ndarray) -> bytes:
    """An RGB frame as JPEG bytes."""
    ok, data = cv2.imencode(
        ".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]
    )
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 RGB frame
        raise BadUpload("The picture could not be encoded as JPEG.")
    return data.tobytes()

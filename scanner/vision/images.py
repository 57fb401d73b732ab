"""Reading and writing image files as RGB frames."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scanner.vision.errors import ImageError


def read_image(path: Path | str) -> np.ndarray:
    """The picture in ``path`` as an RGB uint8 frame [H, W, 3]; :class:`ImageError` when the
    file is missing, a folder, or not a picture OpenCV can decode."""
    path = Path(path)
    if not path.exists():
        raise ImageError(path, "no such file")
    if path.is_dir():
        raise ImageError(path, "is a folder, not an image")
    try:
        data = np.fromfile(path, np.uint8)
    except OSError as error:
        raise ImageError(path, f"cannot be read ({error.strerror or error})") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(path, "is not an image OpenCV can read (JPEG, PNG, BMP, TIFF, WebP…)")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def write_image(path: Path | str, frame: np.ndarray, quality: int = 90) -> None:
    """Write an RGB frame; the file's suffix picks the format."""
    path = Path(path)
    params = [cv2.IMWRITE_JPEG_QUALITY, quality] if path.suffix.lower() in (".jpg", ".jpeg") else []
    ok, data = cv2.imencode(path.suffix or ".png", cv2.cvtColor(frame, cv2.COLOR_RGB2BGR), params)
    if not ok:
        raise ImageError(path, "cannot be encoded in this format")
    try:
        path.write_bytes(data.tobytes())
    except OSError as error:
        raise ImageError(path, f"cannot be written ({error.strerror or error})") from None

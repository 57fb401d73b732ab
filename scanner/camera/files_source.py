"""Image files as a camera: one picture, a folder of them, or a glob, shown in turn."""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scanner.camera.errors import CameraError
from scanner.camera.source import Picture, SourceBase
from scanner.vision.errors import ImageError
from scanner.vision.images import read_image

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
GLOB_CHARACTERS = "*?["


def is_image_name(path: Path | str) -> bool:
    return Path(path).suffix.lower() in IMAGE_SUFFIXES


def find_images(where: str, source: str) -> list[Path]:
    """The pictures ``where`` names: a file itself, a folder's images in name order, or a
    glob's matching images in name order. :class:`CameraError` when there are none."""
    expanded = os.path.expanduser(where)
    if any(character in expanded for character in GLOB_CHARACTERS):
        matched = sorted(glob.glob(expanded, recursive=True))
        images = [Path(p) for p in matched if Path(p).is_file() and is_image_name(p)]
        if not images:
            found = f"{len(matched)} files but no images" if matched else "nothing"
            raise CameraError(f"'{where}' matches {found}: no pictures to show.", source=source)
        return images
    path = Path(expanded)
    if path.is_dir():
        images = sorted(p for p in path.iterdir() if p.is_file() and is_image_name(p))
        if not images:
            raise CameraError(
                f"the folder {where} holds no images ({', '.join(IMAGE_SUFFIXES)}).",
                source=source,
            )
        return images
    if path.is_file():
        return [path]
    raise CameraError(f"there is no file or folder {where}.", source=source)


class FilesSource(SourceBase):
    """Each capture shows the next picture, starting again after the last. The list is made
    when the source opens. A file that cannot be read raises :class:`CameraError` naming it;
    the next capture goes on with the file after it."""

    kind = "files"

    def __init__(self, spec: str, where: str, *, clock: Callable[[], float] = time.time) -> None:
        super().__init__(spec, clock=clock)
        self.where = where
        self._paths: list[Path] = []
        self._position = 0  # captures tried, unreadable files included

    def _open(self) -> None:
        self._paths = find_images(self.where, self.spec)

    def _capture(self, number: int) -> Picture:
        path = self._paths[self._position % len(self._paths)]
        self._position += 1
        try:
            image = read_image(path)
        except ImageError as error:
            # ImageError already reads "<path>: <reason>", the sentence a player needs.
            raise CameraError(str(error), source=self.spec) from error
        return Picture(image, str(path))

    def _close(self) -> None:
        self._paths = []

    def _details(self) -> dict[str, Any]:
        return {"images": len(self._paths), "tried": self._position}

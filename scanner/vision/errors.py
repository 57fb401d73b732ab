"""Every error the vision pipeline raises, each naming the file or value that caused it."""

from __future__ import annotations

from pathlib import Path


class VisionError(Exception):
    """Base class: the message is one complete sentence."""


class RecogniserError(VisionError):
    """The models cannot be loaded or do not follow the contract in ``contract.py``."""


class ImageError(VisionError):
    """An image file that cannot be read as a picture."""

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{path}: {reason}")

"""Labelled real photos made dull, as a webcam in warm room light shows cards: the measuring set
for reading colour under a cast when no such photos are labelled (model/experiments/colour.md).

``python -m model.evaluate.dulled SRC --labels SPLIT.csv --out DIR`` writes each photo of the
split dulled under DIR at its own relative path, and the split as DIR/labels.csv: then
``handfoot eval DIR --labels DIR/labels.csv``. Fixed numbers, no randomness: the same photos
give the same files.
"""

from __future__ import annotations

import argparse
import csv
import shutil
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

SATURATION = 0.35  # of the photo's own colour kept: a webcam's washed-out colour
GAINS_BGR = (0.80, 0.92, 1.0)  # blue and green lowered: warm light left unbalanced
QUALITY = 70  # the JPEG quality of a webcam's stream


def dulled(bgr: np.ndarray) -> np.ndarray:
    """A BGR photo with its colour weakened and cast warm."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] *= SATURATION
    weak = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    weak *= np.array(GAINS_BGR, np.float32)
    return np.clip(weak, 0, 255).astype(np.uint8)


def write_dulled(source: Path, labels: Path, out: Path) -> int:
    """Every photo ``labels`` names (column ``image``, relative to ``source``) dulled under
    ``out``; the labels copied to ``out/labels.csv``. Returns how many photos were written."""
    return write_each(source, labels, out, dulled, QUALITY)


def write_each(
    source: Path,
    labels: Path,
    out: Path,
    change: Callable[[np.ndarray], np.ndarray],
    quality: int,
) -> int:
    """Every photo ``labels`` names (column ``image``, relative to ``source``) changed by
    ``change`` (BGR in, BGR out) and written under ``out`` at its own relative path as a JPEG
    of ``quality``; the labels copied to ``out/labels.csv``. Returns how many were written."""
    with labels.open(newline="") as handle:
        images = [row["image"] for row in csv.DictReader(handle)]
    for image in images:
        bgr = cv2.imread(str(source / image))
        if bgr is None:
            raise SystemExit(f"{source / image}: not a photo this can read")
        target = out / image
        target.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(target), change(bgr), [cv2.IMWRITE_JPEG_QUALITY, quality])
    shutil.copy(labels, out / "labels.csv")
    return len(images)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m model.evaluate.dulled", description=__doc__)
    parser.add_argument("source", type=Path, help="the folder the split's image paths start in")
    parser.add_argument("--labels", type=Path, required=True, help="the split (image,cards,…)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    count = write_dulled(args.source, args.labels, args.out)
    print(f"{count} photos dulled into {args.out}; labels in {args.out / 'labels.csv'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Labelled real photos scaled up, as a phone's photo of a few cards close up shows them: the
measuring set for indices larger than the locator learnt (model/experiments/close-up.md).

``python -m model.evaluate.scaled SRC --labels SPLIT.csv --factor 2 --out DIR`` writes each
photo of the split scaled by the factor under DIR at its own relative path, and the split as
DIR/labels.csv: then ``handfoot eval DIR --labels DIR/labels.csv``. No randomness: the same
photos give the same files.
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from model.evaluate.dulled import write_each

QUALITY = 92  # a phone's JPEG


def scaled(bgr: np.ndarray, factor: float) -> np.ndarray:
    """A BGR photo scaled by ``factor`` (bicubic up, area down)."""
    interpolation = cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA
    return cv2.resize(bgr, None, fx=factor, fy=factor, interpolation=interpolation)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m model.evaluate.scaled", description=__doc__)
    parser.add_argument("source", type=Path, help="the folder the split's image paths start in")
    parser.add_argument("--labels", type=Path, required=True, help="the split (image,cards,…)")
    parser.add_argument("--factor", type=float, required=True, help="e.g. 2: twice as large")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if not 0.1 <= args.factor <= 8:
        parser.error(f"--factor is between 0.1 and 8, not {args.factor}")
    count = write_each(
        args.source, args.labels, args.out, partial(scaled, factor=args.factor), QUALITY
    )
    labels = args.out / "labels.csv"
    print(f"{count} photos scaled by {args.factor:g} into {args.out}; labels in {labels}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

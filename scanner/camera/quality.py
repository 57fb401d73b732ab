"""Is a frame worth reading? Too dark, blurred, or showing nothing at all.

The check is cheap (about 2.5 ms for a 1280×960 frame, 7 ms for 2304×1296) so it can run on
every capture, before the recogniser, and tell the players what to change in words they
understand.

Every figure is taken on a grey copy shrunk to ``WORK_WIDTH`` pixels across, so it does not
depend on the camera's resolution: a blur of 6 px on a 1280-wide frame and one of 10.8 px on a
2304-wide frame give about the same sharpness.

Calibration. Rendered scenes (``model.synth.scene.render_scene``, test split; 40 at 1280×960
from seed 2026, and 80 from seed 99 at 2304×1296, 1640×1232, 1280×960 and 960×720) carry the
renderer's own defocus, motion blur of up to 10 px, dim light and vignetting, which the
recogniser reads, so every one of them must pass; and so must the 363 real photographs of
cards kept for validation (phones and webcams, one card on wood grain, a duvet, a dark case…).
Each rendered scene was also darkened to 10 % and blurred:

===========  ==================  ==================  =========================================
measure      clean scenes        real photographs    spoiled copies of the rendered scenes
===========  ==================  ==================  =========================================
brightest    min 139             min 163             darkened to 10 %: max 25
sharpness    min 1.83            min 1.20            Gaussian σ = 6 px @1280: max 1.01;
                                                     straight motion blur of 25 px: max 0.99
===========  ==================  ==================  =========================================

So ``DARK_BELOW`` = 60 lies 2.3× under the dimmest clean scene and 2.4× over the brightest
darkened one. ``BLURRED_BELOW`` = 1.1 lies 1.7× under the least sharp clean scene, 1.09×
under the least sharp photograph, and 1.09× over the sharpest blurred copy: the thin margin is
between real photographs and strong blur. Brightness is judged on the brightest 1 % (the
cards), not the mean, and sharpness on the strongest 0.1 % of gradients (the cards' edges and
prints), because a single card on a dark or softly textured table is a readable picture: an
earlier version, judging the mean and the strongest 1 %, refused 23 of the 363 photographs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

WORK_WIDTH = 640  # px across of the grey copy every figure is measured on
DARK_BELOW = 60.0  # grey level (0–255) of the brightest 1 % of the frame
BLANK_BELOW = 6.0  # grey levels between the darkest and brightest 1 % of the frame
BLURRED_BELOW = 1.1  # sharpness, see :func:`sharpness`
EDGE_SHARE = 0.001  # sharpness looks at the strongest 0.1 % of gradients: the cards' edges

DARK_MESSAGE = "More light, please: the table is too dark to read."
BLURRED_MESSAGE = "Hold still: the picture is blurred."
BLANK_MESSAGE = "Nothing to read: the picture is all one colour. Is the lens covered?"

ProblemKind = Literal["dark", "blurred", "blank"]


@dataclass(frozen=True)
class QualityProblem:
    """Why a frame is not worth reading: ``kind`` for code, ``message`` for players, and the
    measured ``value`` with the ``limit`` it missed, for logs and the health page."""

    kind: ProblemKind
    message: str
    value: float
    limit: float


@dataclass(frozen=True)
class Measures:
    """The three figures :func:`check_quality` judges a frame by."""

    brightness: float  # grey level of the brightest 1 % (the cards), 0–255
    spread: float  # grey levels between the darkest and the brightest 1 %
    sharpness: float  # strongest gradients over the spread; see :func:`sharpness`


def work_grey(image: np.ndarray) -> np.ndarray:
    """``image`` (RGB or grey uint8) as grey, ``WORK_WIDTH`` px across (never enlarged)."""
    if image.ndim != 2 and (image.ndim != 3 or image.shape[2] != 3):
        raise ValueError(f"expected an RGB [H, W, 3] or grey [H, W] frame, got {image.shape}")
    if image.size == 0:
        raise ValueError(f"the frame is empty: {image.shape}")
    # Grey first: shrinking one channel is three times cheaper than shrinking three.
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    height, width = grey.shape
    if width <= WORK_WIDTH:
        return np.ascontiguousarray(grey)
    size = (WORK_WIDTH, max(1, round(height * WORK_WIDTH / width)))
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA)


def _percentile(counts: np.ndarray, share: float) -> int:
    """The smallest value at or above which lies ``1 - share`` of a histogram's samples."""
    cumulative = np.cumsum(counts)
    return int(np.searchsorted(cumulative, share * cumulative[-1]))


def sharpness(grey: np.ndarray, spread: float) -> float:
    """How steep the strongest edges are for the frame's contrast.

    The strongest ``EDGE_SHARE`` of gradients are a table's card edges and printed indices;
    blur flattens them, while lighting and contrast scale them, hence the division by the
    spread. Gradients are taken in four directions and the weakest direction counts, so that
    a blur along one direction (the camera or the table moved) is seen too."""
    gx = cv2.Sobel(grey, cv2.CV_16S, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_16S, 0, 1, ksize=3)
    steepest = []
    # Sobel of 8-bit input stays within ±1020, so the diagonals (±2040) fit in int16.
    for gradient, scale in (
        (gx, 1.0),
        (gy, 1.0),
        (cv2.add(gx, gy), math.sqrt(0.5)),
        (cv2.subtract(gx, gy), math.sqrt(0.5)),
    ):
        counts = np.bincount(np.abs(gradient).ravel().view(np.uint16), minlength=1)
        steepest.append(_percentile(counts, 1.0 - EDGE_SHARE) * scale)
    return min(steepest) / max(spread, 1.0)


def measure(image: np.ndarray) -> Measures:
    """Brightness, spread and sharpness of a frame (RGB or grey uint8)."""
    grey = work_grey(image)
    counts = np.bincount(grey.ravel(), minlength=256)
    brightness = float(_percentile(counts, 0.99))
    spread = float(_percentile(counts, 0.99) - _percentile(counts, 0.01))
    return Measures(brightness, spread, sharpness(grey, spread))


def check_quality(image: np.ndarray) -> QualityProblem | None:
    """The first problem that keeps a frame from being read, or None when it looks readable.

    A frame of one colour (a covered lens, a camera facing a wall) is ``blank``; a frame too
    dim to read is ``dark``; one whose edges are smeared is ``blurred``.

    >>> import numpy as np
    >>> check_quality(np.zeros((480, 640, 3), np.uint8)).kind
    'blank'
    """
    if image.dtype != np.uint8:
        raise ValueError(f"expected a uint8 frame, got {image.dtype}")
    figures = measure(image)
    if figures.spread < BLANK_BELOW:
        return QualityProblem("blank", BLANK_MESSAGE, figures.spread, BLANK_BELOW)
    if figures.brightness < DARK_BELOW:
        return QualityProblem("dark", DARK_MESSAGE, figures.brightness, DARK_BELOW)
    if figures.sharpness < BLURRED_BELOW:
        return QualityProblem("blurred", BLURRED_MESSAGE, figures.sharpness, BLURRED_BELOW)
    return None

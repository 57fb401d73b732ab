"""The size a frame larger than any the locator learnt is read at (pure).

The Pi's cameras take stills of twelve million pixels (4608×2592 on the Camera Module 3,
4056×3040 on the HQ camera) and a phone's photo holds as many or more, but the locator learnt
from frames of at most 2304×1296: in such a still of one side's table from a stand most indices
are larger than the locator reads well, and reading every pixel takes seconds. So
such a frame is first read small (a preview of about 1280×960); the sizes of the indices read
there give the factor that brings them to the size the locator reads best, and the frame is read
at that factor, never larger than it came. Where the preview's indices already measure about
that, the preview's reading is the frame's; where nothing is read in it, the frame is read as it
came (its indices may be too small to read in the preview). A frame no larger than the locator
learnt is read as it came, and again smaller only where the indices read in it measure more than
LARGE_INDEX (``smaller_factor``). The figures: model/experiments/large-frames.md."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from scanner.vision.scale import small_size

# Each chosen in model/experiments/large-frames.md:
LARGEST_LEARNT = 2304 * 1296  # pixels: the largest frames the locator learnt from
PREVIEW_PIXELS = 1280 * 960  # a large frame's first look, scaled to about this many pixels
TARGET_INDEX = 16.0  # px: the preview's median index brought to this; larger read no better
TARGET_SMALL = 9.0  # px: and the smallest fifth of them up to, where they are many
# From this factor up the frame is read as it came: little time saved, and a preview that cannot
# read the smallest indices measures the frame larger than it is.
AS_IT_CAME = 0.8
# px: a frame no larger than the locator learnt whose indices measure more than this at the
# median (a phone's photo close up) is read again at TARGET_INDEX, kept where it reads more cards
# without a check: the locator reads indices of 30 px, not of 45.
LARGE_INDEX = 40.0
SMALLEST_SIDE = 200  # px: no frame is read smaller than this on its short side
# A frame that reads this many cards without a check or fewer may be a close-up whose indices
# the locator measures smaller than they are (a phone's photo of a card or two): it is read
# again at each of CLOSE_UP_SCALES times its scale, the reading with more such cards kept.
CLOSE_UP_CARDS = 3
CLOSE_UP_SCALES = (0.5, 0.33)
# Two factors within this ratio read a frame about alike: the preview's reading then stands, and
# no size so near one read already is looked at again (``second_look.py``).
ALIKE = 1.25


def smaller_factor(sizes: Sequence[float], frame_size: tuple[int, int]) -> float | None:
    """For a frame of ``frame_size`` (width, height), no larger than the locator learnt, read as
    it came: the factor to read it again at, smaller, where ``sizes`` (the short sides of the
    indices read in it as cards, in its pixels) measure more than LARGE_INDEX px at the median:
    the factor that brings them to TARGET_INDEX, unless that leaves the frame's short side
    under SMALLEST_SIDE px. None otherwise."""
    if not sizes:
        return None
    median = float(np.median(np.asarray(sizes, np.float64)))
    factor = TARGET_INDEX / median
    if median <= LARGE_INDEX or factor * min(frame_size) < SMALLEST_SIDE:
        return None
    return factor


def close_up_factors(
    standing: int, scale: float, frame_size: tuple[int, int], looked: Sequence[float]
) -> tuple[float, ...]:
    """The factors to read a frame of ``frame_size`` (width, height) at again, smaller, where
    its reading at ``scale`` holds only ``standing`` cards read without a check (CLOSE_UP_CARDS
    or fewer): ``scale`` times each of CLOSE_UP_SCALES that leaves the frame's short side
    SMALLEST_SIDE px or more and reads unlike every factor ``looked`` at (``alike``)."""
    if standing > CLOSE_UP_CARDS:
        return ()
    factors = [scale * down for down in CLOSE_UP_SCALES]
    return tuple(
        factor
        for factor in factors
        if factor * min(frame_size) >= SMALLEST_SIDE
        and not any(alike(factor, seen) for seen in looked)
    )


def alike(factor: float, other: float) -> bool:
    """Whether a frame read at ``factor`` and at ``other`` reads about alike (ALIKE)."""
    return max(factor / other, other / factor) <= ALIKE


def preview_factor(frame_size: tuple[int, int]) -> float | None:
    """The factor a frame of ``frame_size`` (width, height) is first read at, or None where it
    is no larger than the frames the locator learnt from and is read as it comes."""
    width, height = frame_size
    pixels = width * height
    if pixels <= LARGEST_LEARNT:
        return None
    return math.sqrt(PREVIEW_PIXELS / pixels)


def factor_from_preview(sizes: Sequence[float], preview: float) -> float:
    """The factor to read the frame at, from ``sizes``: the short sides of the indices read as
    cards in its preview (read scaled by ``preview``), in the frame's own pixels. The factor
    brings their median to TARGET_INDEX px, or, where that asks more, the smallest fifth of
    them (eight or more measured) to TARGET_SMALL px; 1 (the frame as it came) from
    AS_IT_CAME up, and ``preview`` itself where it lies within ALIKE of that. With no size
    measured, 1."""
    if not sizes:
        return 1.0
    wanted = TARGET_INDEX / max(float(np.median(np.asarray(sizes, np.float64))), 1e-6)
    small = small_size(sizes)
    if small is not None:
        wanted = max(wanted, TARGET_SMALL / max(small, 1e-6))
    factor = 1.0 if wanted >= AS_IT_CAME else wanted
    if alike(factor, preview):
        return preview
    return factor

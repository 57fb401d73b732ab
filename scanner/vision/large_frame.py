"""The size a frame larger than any the locator learnt is read at (pure).

The Pi's cameras take stills of twelve million pixels (4608×2592 on the Camera Module 3,
4056×3040 on the HQ camera) and a phone's photo holds as many or more, but the locator learnt
from frames of at most 2304×1296. In a twelve-megapixel still of one side's table from a stand
the indices' labels measure 24–70 px across at the median (40 rendered tables), most of them
larger than the locator reads well, and reading every pixel took 3.4–4.2 s a frame on one core.
Read as they came, 82.5 % of those 40 tables came out right, 92.5 % rendered at 2304×1296. So
such a frame is first read small (a preview of about 1280×960); the sizes of the indices read
there give the factor that brings them to the size the locator reads best, and the frame is read
at that factor, never larger than it came. Where the preview's indices already measure about
that, the preview's reading is the frame's; where nothing is read in it, the frame is read as it
came (its indices may be too small to read in the preview). 160 rendered twelve-megapixel side
tables: 139 right as they came, 154 so (none wrong without a check); 24 of them timed, 0.2–1.4 s
a frame against 3.4–4.2 s. A frame no larger than the locator learnt is read as it came, and
again smaller only where the indices read in it measure more than LARGE_INDEX
(``smaller_factor``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from scanner.vision.scale import small_size

LARGEST_LEARNT = 2304 * 1296  # pixels: the largest frames the locator learnt from
PREVIEW_PIXELS = 1280 * 960  # a large frame's first look, scaled to about this many pixels
# px: the short side of an index the preview's median is brought to. Of the 160 side tables,
# 154 right at 16, 150 at 18 and 155 at 20 (one of them wrong without a check): within what a
# few tables vary by, so the smaller and faster.
TARGET_INDEX = 16.0
TARGET_SMALL = 9.0  # px: and the smallest fifth of them up to, where they are many
# A factor this large or larger reads the frame as it came: it would save little time, and
# the preview measures the indices it can read, so a frame whose smallest ones it cannot read
# measures larger than it is. 40 busy twelve-megapixel tables: 346 errors without it, 327 with
# it, 322 read as they came.
AS_IT_CAME = 0.8
# px: indices read measuring more than this at the median in a frame no larger than the locator
# learnt (a phone's photo of a few cards close up, sent at 1–3 million pixels) are read again
# at TARGET_INDEX, and that reading kept where it reads more cards without a check. The locator
# reads 142 of the real photos' 143 `test/` cards with indices of about 30 px, 100 at 45 px.
LARGE_INDEX = 40.0
SMALLEST_SIDE = 200  # px: no frame is read smaller than this on its short side
# Two factors within this ratio of each other read a frame about alike: the preview's reading
# is kept where the factor it measures lies so near its own, and no size so near one read
# already is looked at again (``second_look.py``).
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

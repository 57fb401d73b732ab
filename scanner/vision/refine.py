"""Where a mark's index truly lies: the refiner's crops and what its answer means (pure numpy).

The locator measures an index on a 4 px grid. For indices a few pixels across its marks are
off by a tenth of the index or more, its sizes by half or twice, and the classifier, shown such
a crop, reads "not an index" where the true place reads the card. The refiner looks at a wider
crop centred on the mark and says where the index lies; the place it gives is then read again
(model/experiments/refiner.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

import numpy as np

from scanner.vision.contract import Contract, crop_extent
from scanner.vision.preprocess import IndexPlace, crop_to_frame, warped

# The refiner learnt errors within these (``missed_mark``, model/experiments/refiner.md);
# beyond them it is guessing, so its answers are held to them.
MOST_SHIFT = 0.8  # of the mark's extent, along and down
MOST_LOG_SCALE = math.log(2.5)
MOST_TURN = math.radians(45.0)

Place = TypeVar("Place", bound=IndexPlace)


def refine_matrix(place: IndexPlace, contract: Contract) -> np.ndarray:
    """The 2×3 affine map from refiner-crop pixels to frame pixels: a square REFINE_SCALE of
    the mark's extent wide, centred on it, turned like it."""
    extent = crop_extent(place.index_h, place.index_w, contract.crop_fits_width)
    side = contract.refine_side
    return crop_to_frame(
        place.x,
        place.y,
        place.angle,
        extent,
        crop_w=side,
        crop_h=side,
        crop_scale=contract.refine_scale,
    )


def refine_crops(frame: np.ndarray, places: Sequence[IndexPlace], contract: Contract) -> np.ndarray:
    """The refiner's crops of ``places``: uint8 [N, REFINE_SIDE, REFINE_SIDE, 3]."""
    matrices = [refine_matrix(place, contract) for place in places]
    return warped(frame, matrices, (contract.refine_side,) * 2)


def refined_place(place: Place, geometry: Sequence[float], contract: Contract) -> Place:
    """``place`` moved, scaled and turned as the refiner's ``geometry`` (``contract.REFINED``)
    says, each part held within what it learnt."""
    most = (MOST_SHIFT, MOST_SHIFT, MOST_LOG_SCALE, MOST_LOG_SCALE, MOST_TURN)
    along_by, down_by, log_h, log_w, turn = (
        min(max(float(value), -limit), limit) for value, limit in zip(geometry, most, strict=True)
    )
    extent = crop_extent(place.index_h, place.index_w, contract.crop_fits_width)
    angle = math.radians(place.angle)
    along = (math.cos(angle), math.sin(angle))
    down = (-math.sin(angle), math.cos(angle))
    return replace(
        place,
        x=place.x + extent * (along_by * along[0] + down_by * down[0]),
        y=place.y + extent * (along_by * along[1] + down_by * down[1]),
        index_h=place.index_h * math.exp(log_h),
        index_w=place.index_w * math.exp(log_w),
        angle=(place.angle + math.degrees(turn)) % 360.0,
    )

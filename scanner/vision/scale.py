"""The scale a frame is read at.

The locator learnt indices at the sizes the training frames show them, and it finds indices
5–8 px across (a camera held high above a wide table) far less often than larger ones, and
measures them worse. Scaled up, such a frame adds no detail, but its indices come to the sizes
the locator reads best, and more of its cards are found. A frame whose indices are larger is
read as it comes (scaled down, frames of large indices lost cards lying alone), unless its
smallest fifth are small: a camera at one end of a long table, whose far melds it then reads
scaled up. What is read in a scaled frame is scaled back to the frame's own pixels. The
figures: model/experiments/scale.md."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from scanner.vision.cards import CardReading, IndexReading
from scanner.vision.contract import Contract

# Each chosen in model/experiments/scale.md:
# a frame with fewer cards read is read as it comes: a photo of a few cards is no wide table,
# and scaled by so few readings, the real low-resolution photos read worse
MIN_CARDS = 8
# the share of a frame's indices that make its "smallest" ones: a camera at one end of a long
# table sees the far fifth small where the median is large (``legibility.py`` judges by it too)
SMALL_SHARE = 0.2
# The indices whose sizes judge the scale: those read as cards at least this sure, not 0.5 (a
# long table's far cards are read less surely, so its smallest fifth looked larger than it is).
SIZES_SURE = 0.4


def sure_index_sizes(
    readings: Iterable[IndexReading], not_an_index: str, sure: float
) -> list[float]:
    """The short sides (px) of the indices read as cards at least ``sure``: of all the marks
    on a frame, many are patterns smaller than any index."""
    return [
        min(r.index.index_h, r.index.index_w)
        for r in readings
        if r.code != not_an_index and r.confidence >= sure
    ]


def median_size(sizes: Sequence[float], min_cards: int = MIN_CARDS) -> float | None:
    """The median of ``sizes``, or None when fewer than ``min_cards`` were measured: a few
    cards lying close to the camera say little about a table."""
    return share_size(sizes, 0.5, min_cards)


def small_size(sizes: Sequence[float], min_cards: int = MIN_CARDS) -> float | None:
    """The size the smallest fifth of ``sizes`` (SMALL_SHARE) lie under, or None when fewer
    than ``min_cards`` were measured."""
    return share_size(sizes, SMALL_SHARE, min_cards)


def share_size(sizes: Sequence[float], share: float, min_cards: int = MIN_CARDS) -> float | None:
    """The size ``share`` of ``sizes`` lie under (a quantile), or None when fewer than
    ``min_cards`` were measured."""
    if len(sizes) < min_cards:
        return None
    return float(np.quantile(np.asarray(sizes, np.float64), share))


def reading_scale(
    readings: Iterable[IndexReading], frame_size: tuple[int, int], contract: Contract
) -> float:
    """The factor to read a frame at (``working_scale``), from what its first reading read:
    the sizes of the indices read as cards at least SIZES_SURE sure."""
    sizes = sure_index_sizes(readings, contract.not_an_index, SIZES_SURE)
    return working_scale(sizes, frame_size, contract)


def working_scale(sizes: Sequence[float], frame_size: tuple[int, int], contract: Contract) -> float:
    """The factor to scale a frame by before reading it, from ``sizes`` (the short sides, in
    frame px, of the indices read in it as cards): 1.0 unless their median lies below the
    contract's ``scale_up_below`` or their smallest fifth below its ``scale_small_below``; then
    the factor that brings the median to ``scale_up_to`` or the smallest fifth to
    ``scale_small_to``, whichever is larger, at most ``scale_up_most`` and so that the frame
    (``frame_size``: width, height) stays within ``scale_up_pixels``."""
    median, small = median_size(sizes), small_size(sizes)
    if median is None or small is None:
        return 1.0
    wanted = 1.0
    if contract.scale_up_below > 0 and median < contract.scale_up_below:
        wanted = contract.scale_up_to / max(median, 1e-6)
    if contract.scale_small_below > 0 and small < contract.scale_small_below:
        wanted = max(wanted, contract.scale_small_to / max(small, 1e-6))
    if wanted <= 1.0:
        return 1.0
    width, height = frame_size
    room = math.sqrt(contract.scale_up_pixels / max(1, width * height))
    factor = min(wanted, contract.scale_up_most, room)
    return factor if factor > 1.0 else 1.0


def scaled_frame(frame: np.ndarray, factor: float) -> np.ndarray:
    """``frame`` scaled by ``factor`` (bilinear: a sharper filter rings around small print).
    Given as factors, not a size, OpenCV maps every pixel by exactly ``factor``."""
    return cv2.resize(frame, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)


def _back(value: float, factor: float) -> float:
    # OpenCV's resize maps pixel centres: x = (u + 0.5) * factor - 0.5
    return (value + 0.5) / factor - 0.5


def _moved(
    cards: Sequence[CardReading], point: Callable[[float, float], tuple[float, float]]
) -> tuple[CardReading, ...]:
    """Cards with every point of theirs (index box corners, outline, other corner) moved by
    ``point``."""
    moved = []
    for card in cards:
        x0, y0 = point(card.index_box[0], card.index_box[1])
        x1, y1 = point(card.index_box[2], card.index_box[3])
        other = card.other_corner
        moved.append(
            replace(
                card,
                index_box=(x0, y0, x1, y1),
                polygon=tuple(point(x, y) for x, y in card.polygon),
                other_corner=None if other is None else point(*other),
            )
        )
    return tuple(moved)


def scaled_back(cards: Sequence[CardReading], factor: float) -> tuple[CardReading, ...]:
    """Cards read in a frame scaled by ``factor``, in the unscaled frame's pixels."""
    if factor == 1.0:
        return tuple(cards)
    return _moved(cards, lambda x, y: (_back(x, factor), _back(y, factor)))


def shifted(cards: Sequence[CardReading], dx: float, dy: float) -> tuple[CardReading, ...]:
    """Cards read in a part of a frame whose corner lies at (``dx``, ``dy``), in the whole
    frame's pixels."""
    return _moved(cards, lambda x, y: (x + dx, y + dy))


def indices_shifted(
    readings: Sequence[IndexReading], dx: float, dy: float
) -> tuple[IndexReading, ...]:
    """Indices read in a part of a frame whose corner lies at (``dx``, ``dy``), in the whole
    frame's pixels."""
    return tuple(
        replace(
            reading,
            index=replace(
                reading.index,
                x=reading.index.x + dx,
                y=reading.index.y + dy,
                card_x=reading.index.card_x + dx,
                card_y=reading.index.card_y + dy,
            ),
        )
        for reading in readings
    )


def indices_scaled_back(
    readings: Sequence[IndexReading], factor: float
) -> tuple[IndexReading, ...]:
    """Indices read in a frame scaled by ``factor``, in the unscaled frame's pixels."""
    if factor == 1.0:
        return tuple(readings)
    return tuple(
        replace(
            reading,
            index=replace(
                reading.index,
                x=_back(reading.index.x, factor),
                y=_back(reading.index.y, factor),
                index_w=reading.index.index_w / factor,
                index_h=reading.index.index_h / factor,
                card_x=_back(reading.index.card_x, factor),
                card_y=_back(reading.index.card_y, factor),
                card_w=reading.index.card_w / factor,
                card_h=reading.index.card_h / factor,
            ),
        )
        for reading in readings
    )

"""Whether a frame's cards are large enough to read well, said in the players' words.

A camera high above a wide table shows each card's corner index a few pixels tall. Below about
6 px the recogniser finds 87 % of the cards and the classifier alone reads 65 % of them right
(model/README.md, Measured); no rule after it can give back what the pixels do not hold. What
the players can do is bring the camera closer or zoom in, so a reading whose indices measure
small at the median says so beside its cards, rather than leaving a wrong total unexplained.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from scanner.vision.cards import IndexReading
from scanner.vision.scale import MIN_CARDS

# The median short side (frame px) of a frame's indices read as cards below which the players
# are told: chosen on five busy validation sets (model/README.md, Measured, Cards too small).
SMALL_BELOW_PX = 8.0
SMALL_MESSAGE = (
    "The cards look small to the camera, so some may be misread: bring the camera closer "
    "to the table, or zoom in."
)


@dataclass(frozen=True)
class Advice:
    """What the players could change for a better reading: ``kind`` for code, ``message`` for
    them, and the measured ``value`` with the ``limit`` it missed. It comes with a reading,
    where a camera's QualityProblem (``scanner/camera/quality.py``) keeps a frame from being
    read at all, so a scan carries the two apart."""

    kind: str
    message: str
    value: float
    limit: float

    def as_json(self) -> dict:
        return {
            "kind": self.kind,
            "message": self.message,
            "value": round(self.value, 1),
            "limit": self.limit,
        }


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
    if len(sizes) < min_cards:
        return None
    return float(np.median(np.asarray(sizes, np.float64)))


def advice_for(index_px: float | None) -> Advice | None:
    """Advice to bring the camera closer when the indices measure ``index_px`` at the median
    (None when unmeasured or large enough)."""
    if index_px is None or index_px >= SMALL_BELOW_PX:
        return None
    return Advice("small_cards", SMALL_MESSAGE, index_px, SMALL_BELOW_PX)


def legibility_json(index_px: float | None) -> dict:
    """``index_px`` and the advice it gives, as a reading's and a scan's JSON carry them."""
    advice = advice_for(index_px)
    return {
        "index_px": None if index_px is None else round(index_px, 1),
        "advice": None if advice is None else advice.as_json(),
    }

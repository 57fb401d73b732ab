"""Whether a frame's cards are large enough to read well, said in the players' words.

A camera high above a wide table shows each card's corner index a few pixels tall. Below about
6 px the recogniser finds far fewer of the cards and the classifier alone misreads many of them
(model/experiments/legibility.md); no rule after it can give back what the pixels do not hold.
What the players can do is bring the camera closer or zoom in, so a reading whose smaller indices
measure too small says so beside its cards, rather than leaving a wrong total unexplained. It
is judged by the smallest fifth of the indices, not by the middle one: a camera at one end of
the table sees the far melds small and the near ones large, and the far ones are misread.
"""

from __future__ import annotations

from dataclasses import dataclass

# The players are told when the smallest fifth of a frame's indices read as cards (``scale.py``:
# SMALL_SHARE, small_size) measure under this (short side, frame px): it tells the scenes that
# hold most errors (model/experiments/legibility.md).
SMALL_BELOW_PX = 6.5
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


def advice_for(small_px: float | None) -> Advice | None:
    """Advice to bring the camera closer when ``small_px``, the size the smallest fifth of the
    indices lie under, is under SMALL_BELOW_PX (None when unmeasured or large enough)."""
    if small_px is None or small_px >= SMALL_BELOW_PX:
        return None
    return Advice("small_cards", SMALL_MESSAGE, small_px, SMALL_BELOW_PX)


def legibility_json(index_px: float | None, small_px: float | None) -> dict:
    """The median index size, the size the smallest fifth lie under, and the advice they give,
    as a reading's and a scan's JSON carry them."""
    advice = advice_for(small_px)
    return {
        "index_px": _rounded(index_px),
        "small_px": _rounded(small_px),
        "advice": None if advice is None else advice.as_json(),
    }


def _rounded(size: float | None) -> float | None:
    return None if size is None else round(size, 1)

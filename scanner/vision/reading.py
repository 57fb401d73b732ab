"""What one frame showed: :class:`Reading`, the recogniser's answer."""

from __future__ import annotations

from dataclasses import dataclass

from scanner.vision.cards import CardReading, IndexReading
from scanner.vision.legibility import Advice, advice_for, legibility_json


@dataclass(frozen=True)
class Reading:
    """What one frame showed: the physical cards, milliseconds spent per stage (each stage's
    name, and ``total``), the deck the cards were read as (None when nothing was read surely
    and no deck was expected), the factor the frame was scaled by to be read (``scale.py``;
    the cards are in the frame's own pixels), every index read before the corners were
    paired into cards, "not an index" included (``handfoot eval`` says from them what became
    of a card missed), and the median size of the indices read as cards and the size the
    smallest fifth of them lie under, in the frame's own pixels (None when fewer than eight
    were read)."""

    cards: tuple[CardReading, ...]
    timing_ms: dict[str, float]
    deck: str | None = None
    scale: float = 1.0
    indices: tuple[IndexReading, ...] = ()
    index_px: float | None = None  # the median short side of the indices read as cards
    small_px: float | None = None  # the short side the smallest fifth of them lie under
    # every scale the frame was read at, in turn (the frame as it came scaled by each)
    looked: tuple[float, ...] = ()
    negative: bool = False  # read as its negative (light print on dark cards): so were its crops

    @property
    def advice(self) -> Advice | None:
        """What the players could change for a better reading (``legibility.py``)."""
        return advice_for(self.small_px)

    def as_json(self) -> dict:
        return {
            "cards": [card.as_json() for card in self.cards],
            "deck": self.deck,
            "scale": round(self.scale, 3),
            **legibility_json(self.index_px, self.small_px),
            "timing_ms": {stage: round(ms, 1) for stage, ms in self.timing_ms.items()},
        }

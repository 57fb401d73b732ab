"""Dark cards among light ones: the frame's negative read too (rule ``dark_cards``; pure).

The locator learnt dark print on light paper. A black deck's gold or white print it marks
now and then, and mostly not at all, however large and sharp: its negative, dark print on light
paper, it reads as it reads any card. A frame in which no card is read at all is read as its
negative already (``second_look``'s rule ``negative``); a frame that reads some cards, light
ones beside the dark or a dark card's few marked indices, was not. Where a frame holds enough
dark surface to be a card's, its negative is read too, at the scale the frame's own reading
was kept at, and the negative's cards that lie clear of the frame's own, on dark paper, are
added to them. A dark table makes the same test pass: its negative shows the light cards dark,
which the locator does not read, so it costs that frame one reading more and little else.

A negative holds what no frame showed the networks: a light card's pips turned light on dark,
a keyboard's dark keys turned light. What it reads there is mostly a joker, the class whose
art varies most, at one corner and not on dark paper; so a card whose outline is hardly dark
is not added, nor a joker read at one corner. The figures: model/experiments/dark-cards.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scanner.vision.cards import CardReading
from scanner.vision.reading import Reading

# A pixel this much darker than the frame's white (its mean channel, as a share of the white's)
# is dark enough to be a black card's paper: black card stock photographs at 5-25 % of the
# white desk beside it, a wooden table at 30-60 %.
DARK_LEVEL = 0.25
# ... and a frame this share of whose pixels are that dark may hold a dark card: one card of a
# six-card spread on a desk is about 4 % of the frame.
DARK_SHARE = 0.03
# a negative's card is added only where at least this share of its outline is that dark: a
# black card's outline measures 0.3-0.95 (its print and what lies on it the rest), a light
# card's pips or a light table read in the negative 0-0.05
ON_DARK = 0.1
# the jokers' codes: what a negative's textures read as (above)
JOKERS = frozenset({"JK", "JOKER"})
# at most this many pixels measured (every n-th row and column)
MOST_PIXELS = 65536


@dataclass(frozen=True)
class DarkSurface:
    """Where a frame is dark enough to be a black card's paper: ``mask`` (bool) over every
    ``step``-th row and column of the frame."""

    mask: np.ndarray
    step: int

    @classmethod
    def of(cls, frame: np.ndarray, white: np.ndarray) -> DarkSurface:
        """The dark surface of an RGB frame whose brightest surfaces are ``white``
        (``ink_colour.frame_white``).

        >>> frame = np.full((40, 40, 3), 230, np.uint8)
        >>> frame[:10] = 20
        >>> DarkSurface.of(frame, np.array([231.0, 231.0, 231.0])).share
        0.25
        """
        step = max(1, math.ceil(np.sqrt(frame.shape[0] * frame.shape[1] / MOST_PIXELS)))
        light = frame[::step, ::step].mean(axis=2)
        return cls(light < DARK_LEVEL * float(np.mean(white)), step)

    @property
    def share(self) -> float:
        """The share of the frame that is dark."""
        return float(self.mask.mean()) if self.mask.size else 0.0

    @property
    def may_hold_dark_cards(self) -> bool:
        """Whether the frame holds dark surface enough for a dark card."""
        return self.share >= DARK_SHARE

    def share_within(self, polygon: Sequence[tuple[float, float]]) -> float:
        """The share of ``polygon`` (frame px) that is dark; 0 where it covers no pixel."""
        inside = np.zeros(self.mask.shape, np.uint8)
        corners = np.round(np.asarray(polygon, np.float64) / self.step).astype(np.int32)
        cv2.fillPoly(inside, [corners], 1)
        covered = inside.astype(bool)
        return float(self.mask[covered].mean()) if covered.any() else 0.0


def _clear_of(card: CardReading, others: Sequence[CardReading]) -> bool:
    """Whether ``card``'s index lies clear of every other card's read indices: neither box
    overlaps, nor does its index lie on the other's far corner."""
    x0, y0, x1, y1 = card.index_box
    for other in others:
        u0, v0, u1, v1 = other.index_box
        if x0 < u1 and u0 < x1 and y0 < v1 and v0 < y1:
            return False
        if other.other_corner is not None:
            cx, cy = other.other_corner
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                return False
    return True


def _dark_card(card: CardReading, dark: DarkSurface) -> bool:
    """Whether a card the negative read is a dark card: read without a check, its outline on
    dark paper, and no joker read at one corner only."""
    if card.check or (card.code in JOKERS and card.corners < 2):
        return False
    return dark.share_within(card.polygon) >= ON_DARK


def joined(reading: Reading, negative: Reading, dark: DarkSurface) -> Reading:
    """``reading`` with the dark cards its ``negative`` read (both in the frame's own pixels)
    where they lie clear of its own cards. Its indices stay its own: what sizes the frame and
    what ``eval`` says became of a card missed."""
    added = tuple(
        card for card in negative.cards if _dark_card(card, dark) and _clear_of(card, reading.cards)
    )
    if not added:
        return reading
    return replace(reading, cards=reading.cards + added)

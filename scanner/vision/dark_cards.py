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
a keyboard's dark keys turned light. So a card of the negative is added only where its outline
is dark paper, lighter somewhere along its edge (a card lies on something; a key among keys
does not), and not where a card of its rank lies over it (its other corner, read as it came);
nor a joker read at one corner, the class whose art varies most, where a negative's textures
land. The figures: model/experiments/dark-cards.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine import Card, Deck, Rank
from scanner.vision.cards import CardReading
from scanner.vision.contract import deck_of
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
# card's pips, a light table or a rendered table's pattern read in the negative 0-0.25
ON_DARK = 0.3
# ... and where at most this share of the band around its outline, a quarter of its size wide,
# is dark: a card lies on something lighter than itself somewhere along its edge (a black card
# on a desk or among others measures 0.1-0.77), a keyboard's keys do not (0.8-0.93)
AROUND_DARK = 0.78
BAND = 0.25
# the jokers' codes: what a negative's textures read as (above)
JOKERS = frozenset({"JK", "JOKER"})
# at most this many pixels measured (every n-th row and column)
MOST_PIXELS = 65536
# Only the part of the frame where a dark card may lie is read as its negative: its dark
# patches from this share of the frame's median card (a dark card partly covered) up to this
# share of the frame or this many cards, whichever is more (larger: the table itself, on which
# a dark card shows no lighter edge; a close-up's card may fill half the frame), grown by this
# share of a card's side (its index lies at its edge).
PATCH_FROM = 0.3
PATCH_TO = 0.4
PATCH_CARDS = 12
PATCH_GROW = 0.5


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

    def card_region(
        self, cards: Sequence[CardReading], frame_size: tuple[int, int]
    ) -> tuple[int, int, int, int] | None:
        """The box (x0, y0, x1, y1, frame px) around every dark patch a dark card may be, as
        large as the frame's median card (``cards``, read as the frame came) or a little
        smaller, and at most PATCH_TO of a frame of ``frame_size`` (width, height); grown by
        PATCH_GROW of a card's side. None where there is no such patch."""
        areas = [abs(cv2.contourArea(np.asarray(c.polygon, np.float32))) for c in cards]
        card = float(np.median(areas)) / self.step**2 if areas else 0.0
        if card <= 0 or not self.mask.any():
            return None
        _, _, stats, _ = cv2.connectedComponentsWithStats(self.mask.astype(np.uint8), 8)
        size = stats[1:, cv2.CC_STAT_AREA]
        most = max(PATCH_TO * self.mask.size, PATCH_CARDS * card)
        patches = stats[1:][(size >= PATCH_FROM * card) & (size <= most)]
        if not len(patches):
            return None
        grow = PATCH_GROW * math.sqrt(card)
        x0 = patches[:, cv2.CC_STAT_LEFT].min() - grow
        y0 = patches[:, cv2.CC_STAT_TOP].min() - grow
        x1 = (patches[:, cv2.CC_STAT_LEFT] + patches[:, cv2.CC_STAT_WIDTH]).max() + grow
        y1 = (patches[:, cv2.CC_STAT_TOP] + patches[:, cv2.CC_STAT_HEIGHT]).max() + grow
        width, height = frame_size
        return (
            max(0, int(x0 * self.step)),
            max(0, int(y0 * self.step)),
            min(width, math.ceil(x1 * self.step)),
            min(height, math.ceil(y1 * self.step)),
        )

    def share_within(self, polygon: Sequence[tuple[float, float]]) -> float:
        """The share of ``polygon`` (frame px) that is dark; 0 where it covers no pixel."""
        return self._share(self._filled(polygon))

    def share_around(self, polygon: Sequence[tuple[float, float]]) -> float:
        """The share of the band around ``polygon`` (frame px) that is dark: the polygon grown
        by BAND of its size about its centre, less the polygon; 1 where it covers no pixel."""
        corners = np.asarray(polygon, np.float64)
        centre = corners.mean(axis=0)
        band = self._filled(centre + (corners - centre) * (1 + BAND)) & ~self._filled(polygon)
        return self._share(band) if band.any() else 1.0

    def _filled(self, polygon: Sequence[tuple[float, float]] | np.ndarray) -> np.ndarray:
        """The cells of the mask ``polygon`` (frame px) covers (bool)."""
        inside = np.zeros(self.mask.shape, np.uint8)
        corners = np.round(np.asarray(polygon, np.float64) / self.step).astype(np.int32)
        cv2.fillPoly(inside, [corners], 1)
        return inside.astype(bool)

    def _share(self, cells: np.ndarray) -> float:
        return float(self.mask[cells].mean()) if cells.any() else 0.0


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    x0, y0, x1, y1 = box
    return (x0 + x1) / 2, (y0 + y1) / 2


def _within(point: tuple[float, float], polygon: Sequence[tuple[float, float]]) -> bool:
    outline = np.asarray(polygon, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(outline, (float(point[0]), float(point[1])), False) >= 0


def _rank(code: str) -> Rank:
    """The rank of a card's code, as the engine reads it (either colour, either deck)."""
    return Card.from_code(code, Deck(deck_of(code))).rank


def _clear_of(card: CardReading, others: Sequence[CardReading]) -> bool:
    """Whether ``card`` lies clear of every other card: neither index box overlaps, its index
    lies not on the other's far corner, no card of its rank lies over it (either's index within
    the other's outline: the same card, its other corner read in the negative), and, read at
    one corner only, its index lies within no other card's outline (a light card's print
    turned light on dark)."""
    x0, y0, x1, y1 = card.index_box
    centre = _centre(card.index_box)
    for other in others:
        if _within(centre, other.polygon) and (
            card.corners < 2 or _rank(other.code) == _rank(card.code)
        ):
            return False
        if _rank(other.code) == _rank(card.code) and _within(
            _centre(other.index_box), card.polygon
        ):
            return False
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
    dark paper, lighter somewhere along its edge, and no joker read at one corner only."""
    if card.check or (card.code in JOKERS and card.corners < 2):
        return False
    return (
        dark.share_within(card.polygon) >= ON_DARK
        and dark.share_around(card.polygon) <= AROUND_DARK
    )


def joined(reading: Reading, negative: Reading, dark: DarkSurface) -> Reading:
    """``reading`` with the dark cards its ``negative`` read (both in the frame's own pixels)
    where they lie clear of its own cards and, the surest first, of those added before them (a
    pip of a dark card read as its rank lies over the card). Its indices stay its own: what
    sizes the frame and what ``eval`` says became of a card missed."""
    added: list[CardReading] = []
    dark_ones = [card for card in negative.cards if _dark_card(card, dark)]
    for card in sorted(dark_ones, key=lambda card: -card.confidence):
        if _clear_of(card, (*reading.cards, *added)):
            added.append(card)
    if not added:
        return reading
    chosen = {id(card) for card in added}  # in the negative's own order
    kept = tuple(card for card in negative.cards if id(card) in chosen)
    return replace(reading, cards=reading.cards + kept)

"""Classified indices → physical cards, each once (pure functions).

A fully visible card shows two indices, the second turned about 180° at the opposite corner;
both predict the same card centre. A fanned meld hides all but one index of most cards, and the
locator may mark one index twice; both cases are resolved here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from scanner.vision.decode import IndexCandidate, Point, angle_gap

DUPLICATE_SHARE = 0.5  # another mark within half the index's size of a mark is the same index
DUPLICATE_ANGLE = 30.0
PAIR_DISTANCE = 0.8  # two indices of one card predict centres within 0.8 of its short side
PAIR_ANGLE_SLACK = 30.0  # … and read about 180° apart (± this)
PAIR_TIGHT = 0.3  # closer than this, two corners are one card even when read differently


@dataclass(frozen=True)
class IndexReading:
    """One located index and what the classifier read in it."""

    index: IndexCandidate
    code: str  # one of the classifier's classes, "none" included
    confidence: float  # the classifier's probability of ``code``


@dataclass(frozen=True)
class CardReading:
    """One physical card: its code (RULES.md §6, R/B form), the classifier's confidence, the
    index it was read from, the card's outline in reading order, and ``check`` when the reading
    is too unsure to count without a person looking."""

    code: str
    confidence: float
    index_box: tuple[float, float, float, float]  # x0, y0, x1, y1, frame px
    polygon: tuple[Point, Point, Point, Point]
    angle: float  # degrees clockwise from upright, of the index read
    check: bool

    @classmethod
    def from_index(cls, reading: IndexReading, min_confidence: float) -> CardReading:
        return cls(
            code=reading.code,
            confidence=reading.confidence,
            index_box=reading.index.index_box(),
            polygon=reading.index.card_polygon(),
            angle=reading.index.angle,
            check=reading.confidence < min_confidence,
        )

    def as_json(self, digits: int = 1) -> dict:
        """The card as the CLI and the web page print it."""
        return {
            "code": self.code,
            "confidence": round(self.confidence, 3),
            "index_box": [round(value, digits) for value in self.index_box],
            "polygon": [[round(x, digits), round(y, digits)] for x, y in self.polygon],
            "angle": round(self.angle, 1),
            "check": self.check,
        }


def same_index(first: IndexCandidate, second: IndexCandidate) -> bool:
    """Whether two marks lie on one printed index: about the same reading angle, and each
    centre within half an index width and height of the other along the index's own axes."""
    if angle_gap(first.angle, second.angle) > DUPLICATE_ANGLE:
        return False
    (ux, uy), (vx, vy) = first.axes
    dx, dy = second.x - first.x, second.y - first.y
    width = max(first.index_w, second.index_w)
    height = max(first.index_h, second.index_h)
    along, down = abs(dx * ux + dy * uy), abs(dx * vx + dy * vy)
    return along < DUPLICATE_SHARE * width and down < DUPLICATE_SHARE * height


class _Marks:
    """Indices kept so far, as arrays, so "does this repeat a kept one?" is one numpy test."""

    def __init__(self, capacity: int) -> None:
        self._rows = np.empty((capacity, 9))  # x, y, angle, w, h, ux, uy, vx, vy
        self._count = 0

    def add(self, mark: IndexCandidate) -> None:
        (ux, uy), (vx, vy) = mark.axes
        self._rows[self._count, :5] = (mark.x, mark.y, mark.angle, mark.index_w, mark.index_h)
        self._rows[self._count, 5:] = (ux, uy, vx, vy)
        self._count += 1

    def repeats(self, mark: IndexCandidate) -> bool:
        """Whether ``mark`` lies on a kept index (see :func:`same_index`)."""
        x, y, angle, w, h, ux, uy, vx, vy = self._rows[: self._count].T
        gap = np.abs((angle - mark.angle + 180.0) % 360.0 - 180.0)
        dx, dy = mark.x - x, mark.y - y
        along = np.abs(dx * ux + dy * uy) < DUPLICATE_SHARE * np.maximum(w, mark.index_w)
        down = np.abs(dx * vx + dy * vy) < DUPLICATE_SHARE * np.maximum(h, mark.index_h)
        return bool(np.any((gap <= DUPLICATE_ANGLE) & along & down))


def suppress_duplicates(candidates: Iterable[IndexCandidate]) -> tuple[IndexCandidate, ...]:
    """Each printed index once: of marks on the same index, the one with the most heat."""
    ordered = sorted(candidates, key=lambda c: -c.score)
    marks, kept = _Marks(len(ordered)), []
    for candidate in ordered:
        if not marks.repeats(candidate):
            marks.add(candidate)
            kept.append(candidate)
    return tuple(kept)


def _pair_error(first: IndexCandidate, second: IndexCandidate) -> float | None:
    """How far apart the card centres two indices predict are, in card short sides, or None
    when they do not read about 180° apart (the two corners of a card always do)."""
    if abs(angle_gap(first.angle, second.angle) - 180.0) > PAIR_ANGLE_SLACK:
        return None
    short = min(first.card_short_side, second.card_short_side)
    return float(np.hypot(first.card_x - second.card_x, first.card_y - second.card_y) / short)


def same_card(first: IndexCandidate, second: IndexCandidate, *, tight: bool = False) -> bool:
    """Whether two indices are the two corners of one card (see :func:`_pair_error`);
    ``tight`` asks for geometry sure enough to merge even two different readings."""
    error = _pair_error(first, second)
    return error is not None and error <= (PAIR_TIGHT if tight else PAIR_DISTANCE)


def merge_cards(
    readings: Sequence[IndexReading], *, not_an_index: str, min_confidence: float
) -> tuple[CardReading, ...]:
    """Physical cards from classified indices, most confident first. Indices read as
    ``not_an_index`` are dropped; two readings of one code that are the two corners of one card
    become one card (the more confident reading); twice-marked indices count once. Readings
    below ``min_confidence`` are kept with ``check=True``."""
    ordered = sorted((r for r in readings if r.code != not_an_index), key=lambda r: -r.confidence)
    kept: list[IndexReading] = []
    marks = _Marks(len(ordered))
    paired: set[int] = set()  # positions in ``kept`` that already have their second corner
    for reading in ordered:
        if marks.repeats(reading.index):
            continue
        # The other corner of a card already kept: the same reading, or geometry sure enough
        # that a different reading of it is the classifier's mistake (the surer one stays).
        partner = _partner(reading, kept, paired)
        if partner is None:
            kept.append(reading)
        else:
            paired.add(partner)
        marks.add(reading.index)
    return tuple(CardReading.from_index(reading, min_confidence) for reading in kept)


def _partner(reading: IndexReading, kept: Sequence[IndexReading], paired: set[int]) -> int | None:
    """The kept reading whose card ``reading`` is the other corner of: the nearest by pair
    error among those close enough, so a fan's top card read from both corners pairs with
    itself rather than with the neighbour it half covers."""
    best, best_error = None, None
    for n, other in enumerate(kept):
        if n in paired:
            continue
        error = _pair_error(other.index, reading.index)
        limit = PAIR_DISTANCE if other.code == reading.code else PAIR_TIGHT
        if error is not None and error <= limit and (best_error is None or error < best_error):
            best, best_error = n, error
    return best

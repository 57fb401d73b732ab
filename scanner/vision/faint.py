"""Which of the locator's faint marks are read as fully as its clear ones, and which count
(pure).

A faint mark (heat above FAINT_HEAT but not the contract's PEAK_THRESHOLD) is most often the
locator unsure of a small index, at times a pattern on the cloth. It is read once, at the angle
the locator gives it, and counts only where the classifier reads a card in it FAINT_SURE sure:
turning every faint mark costs more than it finds (on five busy validation sets, 7 cards more
found than by turning only those near the edge, and 14 phantoms more).

A faint mark near the frame's edge is read in full, as a clear mark is (turned where unsure,
moved where the refiner says its index lies, looked at closer), and counts as any faint mark
does. There the locator sees only part of the index's surroundings and its heat is lower: on
the busy test split, cards of 8 px and more were missed about six times as often where their
index lay within 1.5 index sizes of the edge (15 missed to the 522 such indices lying there,
against 86 to 18,654 elsewhere).

A large faint mark (its index FAINT_LARGE_PX or more on its short side, in the pixels of the
frame as read, its heat at least FAINT_LARGE_HEAT) counts from FAINT_LARGE_SURE: of the 80
cards of 8 px and more missed with no reading on the five busy validation sets, 32 had a faint
mark on them, 22 of those with heat 0.2 or more.
"""

from __future__ import annotations

from scanner.vision.decode import IndexCandidate

# On 60 validation scenes, faint marks read once: recall 84.5 → 85.3 %, precision 94.04 →
# 93.96 %, 10 % more time.
FAINT_HEAT = 0.1
FAINT_SURE = 0.9
# Index sizes (short sides) from the frame's edge. Five busy validation sets (seeds 6161, 6262,
# 7777, 7878, 7979; 500 scenes), errors and scenes exact: faint marks read once 1,014 and 322;
# those within 2 index sizes of the edge read in full 999 and 323 (within 3: the same); every
# faint mark read in full 1,002 and 317 (phantoms 52 → 68). The large ones (from 12 px) read in
# full as well: 992 and 325, but 2 fewer of the real photos' cards read right (model card).
NEAR_EDGE = 2.0
# Five busy validation sets, against 1,001 errors and 320 of 500 exact: large faint marks
# counted from 0.7 sure, 991 and 322 (cards missed 545 → 528, phantoms 55 as before). Read in
# full as well: 977 and 325, but 5 more of 320 one-side test tables wrong (with a check); read
# in full and counted from 0.5 sure: 973 and 325, phantoms 65 (model card).
FAINT_LARGE_PX = 8.0
FAINT_LARGE_HEAT = 0.2
FAINT_LARGE_SURE = 0.7


def large(candidate: IndexCandidate) -> bool:
    """Whether a faint ``candidate`` is large and not too faint (FAINT_LARGE_PX, _HEAT)."""
    side = min(candidate.index_h, candidate.index_w)
    return side >= FAINT_LARGE_PX and candidate.score >= FAINT_LARGE_HEAT


def read_in_full(candidate: IndexCandidate, frame_size: tuple[int, int]) -> bool:
    """Whether a faint ``candidate`` in a frame of ``frame_size`` (width, height) px is read as
    a clear mark is: its centre less than NEAR_EDGE index sizes from the frame's edge."""
    width, height = frame_size
    edge = min(candidate.x, candidate.y, width - candidate.x, height - candidate.y)
    return edge < NEAR_EDGE * min(candidate.index_h, candidate.index_w)


def counts(candidate: IndexCandidate, code: str, confidence: float, not_an_index: str) -> bool:
    """Whether a faint ``candidate`` read as ``code`` with ``confidence`` counts: a card,
    FAINT_SURE sure, or FAINT_LARGE_SURE where the mark is large."""
    if code == not_an_index:
        return False
    return confidence >= (FAINT_LARGE_SURE if large(candidate) else FAINT_SURE)

"""Which of the locator's faint marks are read as fully as its clear ones, and which count
(pure).

A faint mark (heat above FAINT_HEAT but not the contract's PEAK_THRESHOLD) is most often the
locator unsure of a small index, at times a pattern on the cloth. It is read once, at the angle
the locator gives it, and counts only where the classifier reads a card in it FAINT_SURE sure:
turning every faint mark costs more than it finds.

A large faint mark (its index FAINT_LARGE_PX or more on its short side, in the pixels of the
frame as read, its heat at least FAINT_LARGE_HEAT) counts from FAINT_LARGE_SURE: many large
cards missed with no reading had such a mark on them.

The figures behind each rule and bound: model/experiments/faint-marks.md.
"""

from __future__ import annotations

from scanner.vision.decode import IndexCandidate

# Each chosen in model/experiments/faint-marks.md:
FAINT_HEAT = 0.1  # heat from which a mark is read at all: more cards for a little time
FAINT_SURE = 0.9  # a faint mark counts only where read this sure: fewer phantoms
FAINT_LARGE_PX = 8.0  # px: a faint mark at least this large …
FAINT_LARGE_HEAT = 0.2  # … and this hot …
FAINT_LARGE_SURE = 0.7  # … counts from this sure: found large cards, no phantoms more


def large(candidate: IndexCandidate) -> bool:
    """Whether a faint ``candidate`` is large and not too faint (FAINT_LARGE_PX, _HEAT)."""
    side = min(candidate.index_h, candidate.index_w)
    return side >= FAINT_LARGE_PX and candidate.score >= FAINT_LARGE_HEAT


def counts(
    candidate: IndexCandidate,
    code: str,
    confidence: float,
    not_an_index: str,
    large_ones: bool = True,
) -> bool:
    """Whether a faint ``candidate`` read as ``code`` with ``confidence`` counts: a card,
    FAINT_SURE sure, or, with ``large_ones``, FAINT_LARGE_SURE where the mark is large."""
    if code == not_an_index:
        return False
    return confidence >= (FAINT_LARGE_SURE if large_ones and large(candidate) else FAINT_SURE)

"""A standard card's rank whose suit sign lies far below it, read again with the sign (pure
numpy).

A standard index is a rank with its suit sign under it; the special deck's numbers stand alone.
On the decks the locator learnt from, the sign sits close under the rank. On a deck drawn
otherwise it may sit half the rank's height below it or more, and the locator then marks the
rank alone: the classifier, seeing a bare 7, reads the special deck's 7, as it should for what
it is shown. A frame of such cards was read as the special deck, and its cards lost.

So a mark read as one of the special deck's numbers that is also a standard rank (2 to 10),
with a little of the classifier's belief on that rank's standard cards, is read again cut a
little lower and taller, where the sign would lie (``grown_down``). Where that reads the same
rank as a standard card surely (``take_grown``), that reading is the mark's, as long as the
frame, read so, is a standard deck's; on a special deck's frame every mark keeps its first
reading (``recogniser.py``).

The constants below were chosen on frames drawn outside this repository with PIL alone
(tests/fixtures/vision/outside/draw.py), and checked on frames drawn afterwards and on the
synthetic scenes (model/experiments/suit-below.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from scanner.vision.contract import SPECIAL_CLASSES, STANDARD_RANKS
from scanner.vision.decode import IndexCandidate

# The numbers both decks print (2 to 10): the special deck's 1, 11 and 12 have no standard twin.
SHARED_NUMBERS = tuple(rank for rank in STANDARD_RANKS if rank in SPECIAL_CLASSES)
# A bare number is read again when the classifier gives that rank's two standard cards at least
# this much together: a special deck's clean number gives them less.
STANDARD_FLOOR = 0.01
# Cut SHIFT index heights further down the mark, GROW times as tall (half as much wider): the
# cut reaches 0.7 of the marked rank's height below its foot, the most drawn cards read right.
SHIFT = 0.3
GROW = 1.8
GROWN_SURE = 0.5  # the grown cut's reading counts from this sure


def bare_numbers(
    probabilities: np.ndarray, classes: Sequence[str], floor: float = STANDARD_FLOOR
) -> list[int]:
    """The rows of ``probabilities`` [marks, classes] whose best class is a number both decks
    print, read as the special deck's, with at least ``floor`` on that rank's standard cards."""
    column = {code: k for k, code in enumerate(classes)}
    rows = []
    for n, best in enumerate(probabilities.argmax(axis=1) if len(probabilities) else []):
        code = classes[best]
        if code not in SHARED_NUMBERS:
            continue
        standard = sum(probabilities[n, column[code + colour]] for colour in "RB")
        if standard >= floor:
            rows.append(n)
    return rows


def grown_down(mark: IndexCandidate, shift: float = SHIFT, grow: float = GROW) -> IndexCandidate:
    """``mark`` moved ``shift`` of its height down its index (along v, as it reads), ``grow``
    times as tall and half as much wider: where a rank's index would hold its suit sign too."""
    _, (vx, vy) = mark.axes
    down = shift * mark.index_h
    return replace(
        mark,
        x=mark.x + vx * down,
        y=mark.y + vy * down,
        index_h=mark.index_h * grow,
        index_w=mark.index_w * (1.0 + (grow - 1.0) / 2.0),
    )


def take_grown(
    probabilities: np.ndarray,
    rows: Sequence[int],
    grown: np.ndarray,
    classes: Sequence[str],
    sure: float = GROWN_SURE,
) -> np.ndarray:
    """``probabilities`` with row ``rows[k]`` replaced by ``grown[k]`` where that reads the
    same rank as a standard card (its best class) at least ``sure``."""
    taken = probabilities.copy()
    for row, again in zip(rows, grown, strict=True):
        number = classes[int(probabilities[row].argmax())]
        best = int(again.argmax())
        if classes[best] in (number + "R", number + "B") and again[best] >= sure:
            taken[row] = again
    return taken

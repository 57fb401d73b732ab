"""Which card a small index is, read again with the card beside it (the wider classifier,
``contract.py``).

An index a few pixels tall is a blur of two or three strokes: a 6, an 8 and a 9 differ by a
pixel. The suit sign under it and the pips or art beside it differ by more. The wider
classifier reads a crop that holds them; where the classifier reads a small index as a card,
the card kept is the one most likely to both. How sure the reading is, and whether it is a card
at all, stays as the classifier read it: every threshold after this one sees the numbers it
saw before, only on another card: letting the wider classifier's own certainty count as well
found more cards but made more phantoms and double counts
(model/experiments/wider-classifier.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scanner.vision.preprocess import IndexPlace


def small_cards(
    probabilities: np.ndarray, places: Sequence[IndexPlace], none: int, below: float
) -> list[int]:
    """The rows of ``probabilities`` [N, classes] read as a card (any class but ``none``, the
    column of "not an index") whose index measures less than ``below`` px on its short side."""
    if not len(places):
        return []
    read = probabilities.argmax(axis=1)
    return [
        n
        for n, place in enumerate(places)
        if read[n] != none and min(place.index_h, place.index_w) < below
    ]


def with_wider(probabilities: np.ndarray, wider: np.ndarray, none: int) -> np.ndarray:
    """Each row of ``probabilities`` [N, classes] with its card swapped for the card most
    likely to both it and the same row of ``wider`` (the wider classifier's probabilities):
    the two columns' probabilities trade places, so the row's values are the same, on another
    card. "Not an index" (column ``none``) keeps its probability."""
    if probabilities.shape != wider.shape:
        raise ValueError(f"{probabilities.shape} probabilities, {wider.shape} wider ones")
    cards = np.ones(probabilities.shape[1], bool)
    cards[none] = False
    was = np.where(cards, probabilities, -1.0).argmax(axis=1)
    best = np.where(cards, probabilities * wider, -1.0).argmax(axis=1)
    rows = np.arange(len(probabilities))
    swapped = probabilities.copy()
    swapped[rows, best] = probabilities[rows, was]
    swapped[rows, was] = probabilities[rows, best]
    return swapped

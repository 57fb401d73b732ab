"""A card whose two corners were both read "not an index", unsurely, and agree on what it is
(pure numpy).

On real photos the classifier's doubt about a large index is often a close call: many cards
missed were marked at both corners, read "not an index" at both, and both corners gave the true
rank next (model/experiments/two-corners-agree.md). One corner's second choice is weak evidence; two
corners lying where one card's two corners lie, each naming the same card next, are two looks at
one card. Such a pair is read as that card, no surer than the surer corner read it, which is
under 0.5, so the card always asks for a check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from scanner.vision.cards import IndexReading, corner_pairs
from scanner.vision.decks import allowed
from scanner.vision.gaps import clear_of

# Each corner gives the card at least this, and reads "not an index" at most NONE_MOST sure
# (model/experiments/two-corners-agree.md).
AGREE_FLOOR = 0.1
NONE_MOST = 0.8


def agreed_unread(
    readings: Sequence[IndexReading],
    classes: Sequence[str],
    deck: str | None,
    not_an_index: str,
    floor: float = AGREE_FLOOR,
    none_most: float = NONE_MOST,
) -> list[IndexReading]:
    """``readings`` with each pair of marks read ``not_an_index`` that lie as one card's two
    corners (read about 180° apart, predicting card centres within PAIR_DISTANCE of a short
    side, or each where the other points to its far corner) read as the card of ``deck`` the
    product of their probabilities names, where each gives it at least ``floor``, less than
    ``not_an_index``, which it reads at most ``none_most``. The pair's readings take that card,
    as sure as the surer corner read it (under 0.5: it asks for a check), and the product of
    their probabilities; the likeliest pairs first, each mark in one pair. A mark within reach
    of an index read as a card is left alone: it is that card's, or a pip beside it."""
    none = classes.index(not_an_index)
    cards = np.array(allowed(classes, deck))
    cards[none] = False
    read = [r.index for r in readings if r.code != not_an_index]
    doubtful = [
        n
        for n, r in enumerate(readings)
        if r.code == not_an_index
        and r.probabilities is not None
        and r.probabilities[none] <= none_most
    ]
    clear = {id(mark) for mark in clear_of([readings[n].index for n in doubtful], read)}
    unread = [n for n in doubtful if id(readings[n].index) in clear]
    if len(unread) < 2 or not cards.any():
        return list(readings)
    fits = corner_pairs([readings[n].index for n in unread])
    raw = np.array([readings[n].probabilities for n in unread])
    probabilities = raw * cards
    # (i, j) → the product's largest value, the surer corner's probability of that card, that
    # card and the product
    found: dict[tuple[int, int], tuple[float, float, int, np.ndarray]] = {}
    for i, j in zip(*np.nonzero(np.triu(fits, 1)), strict=True):
        product = probabilities[i] * probabilities[j]
        best = int(np.argmax(product))
        each = probabilities[[i, j], best]
        # the card second to "not an index" at both corners: read no surer than 0.5, it asks
        # for a check
        if each.min() >= floor and (each < raw[[i, j], none]).all():
            found[int(i), int(j)] = (float(product[best]), float(each.max()), best, product)
    kept, used = list(readings), set()
    for (i, j), (_, sure, best, product) in sorted(found.items(), key=lambda f: -f[1][0]):
        if i in used or j in used:
            continue
        used |= {i, j}
        for k in (i, j):
            n = unread[k]
            kept[n] = replace(
                readings[n],
                code=classes[best],
                confidence=sure,
                probabilities=product / float(product.sum()),
            )
    return kept

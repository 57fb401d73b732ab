"""The verifier's verdict on each reading: which readings are marks on the table, not cards
(pure functions).

Patterned cloths (lace, terrazzo, a card-table print) hold marks the classifier reads as a
black 9 or a joker, some of them 0.9 sure. The verifier (``model/recogniser/verify.py``) looks
at the mark with the paper and the card's corner around it and gives the probability that it is
printed on a card. A reading it doubts is dropped only when it also lies apart from the other
cards: its index lies on no other reading's card and no other reading's index lies on its own.
A card at the end of a fan always touches its neighbour, so a doubt about it (a held-out design,
a dim corner) never silently shortens a meld. A lone doubted reading the classifier is sure of
is not dropped but kept, marked ``doubted``, for a person to check: on real photos the verifier
doubts some real cards lying alone on backgrounds unlike the training tables, and a card left
over in a hand must never silently go missing from its penalty (model/experiments/verifier.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from scanner.vision.cards import IndexReading


def _inside(reading: IndexReading, card_of: IndexReading) -> bool:
    outline = np.array(card_of.index.card_polygon(), np.float32)
    point = (float(reading.index.x), float(reading.index.y))
    return cv2.pointPolygonTest(outline, point, False) >= 0


def settle_lone_doubts(
    readings: Sequence[IndexReading],
    on_card: Sequence[float],
    below: float,
    not_an_index: str,
    ask_from: float | None = None,
) -> list[IndexReading]:
    """``readings`` without those whose on-card probability (``on_card``, one per reading) is
    below ``below`` and which touch none of the readings trusted (see the module's docstring);
    those of them read at least ``ask_from`` sure stay, marked ``doubted``. Readings of
    ``not_an_index`` are kept as they are: they count as no card anyway."""
    if len(on_card) != len(readings):
        raise ValueError(f"{len(on_card)} verdicts for {len(readings)} readings")
    cards = [n for n, reading in enumerate(readings) if reading.code != not_an_index]
    doubted = {n for n in cards if on_card[n] < below}
    trusted = [readings[n] for n in cards if n not in doubted]
    lone = {
        n
        for n in doubted
        if not any(_inside(readings[n], other) or _inside(other, readings[n]) for other in trusted)
    }
    kept = []
    for n, reading in enumerate(readings):
        if n not in lone:
            kept.append(reading)
        elif ask_from is not None and reading.confidence >= ask_from:
            kept.append(replace(reading, doubted=True))
    return kept

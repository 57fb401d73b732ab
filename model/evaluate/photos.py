"""Scoring the recogniser on real photographs labelled in Pascal VOC (one whole-card box per
card, named by rank only: "nine" … "ace"), such as the validation photos in shared/data.

Such labels give neither colour nor index, so this measures less than a synthetic split: a card
is found when a reading's index centre lies in its box (each box once), and read right when the
rank matches. Readings outside every box, or a second one in a box, count against precision.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from scanner.decks.voc import RANK_WORDS, photo_files, voc_boxes
from scanner.vision.cards import CardReading
from scanner.vision.images import read_image

RANKS = RANK_WORDS  # the boxes' names: ranks written out


def _boxes(label: Path) -> list[tuple[str, float, float, float, float]]:
    return [(RANKS.get(name.lower(), "?"), *box) for name, *box in voc_boxes(label)]


def score_photo(boxes, cards: Sequence[CardReading]) -> dict[str, int]:
    used: set[int] = set()
    right = inside = 0
    for card in cards:
        x = (card.index_box[0] + card.index_box[2]) / 2
        y = (card.index_box[1] + card.index_box[3]) / 2
        hit = next(
            (
                i
                for i, (_, x0, y0, x1, y1) in enumerate(boxes)
                if i not in used and x0 <= x <= x1 and y0 <= y <= y1
            ),
            None,
        )
        if hit is None:
            continue
        used.add(hit)
        inside += 1
        rank = card.code[:-1] if card.code[-1:] in "RB" and card.code != "JK" else card.code
        right += rank == boxes[hit][0]
    return {"cards": len(boxes), "found": len(used), "right": right, "readings": len(cards),
            "on_a_card": inside}  # fmt: skip


def evaluate_photos(folder: Path, read: Callable[[np.ndarray], Sequence[CardReading]]) -> dict:
    totals = {"photos": 0, "cards": 0, "found": 0, "right": 0, "readings": 0, "on_a_card": 0}
    for image, label in photo_files(folder):
        counts = score_photo(_boxes(label), read(read_image(image)))
        totals["photos"] += 1
        for key, value in counts.items():
            totals[key] += value
    share = lambda a, b: round(a / b, 4) if b else None  # noqa: E731
    return totals | {
        "recall": share(totals["found"], totals["cards"]),
        "rank_accuracy": share(totals["right"], totals["found"]),
        "precision": share(totals["on_a_card"], totals["readings"]),
    }

"""The cards players corrected in a deal's scans, as examples of the deck the game is read
with: the next scans of that deck read them as the players said.

A scan keeps its reading as the scanner gave it and as corrected. A card whose code the
players changed was misread: its corner, cut from the scan's photo as the classifier reads it,
is taught as the code they gave. Cards taken away are not taught as no card's index: a card
"not in play" is still a card. The photo is read again to find the mark of each such corner
(the reading is the same for the same photo), so the crop is exactly what the classifier saw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from scanner.decks.profiles import examples_of
from scanner.decks.teach import as_read
from scanner.store.decks import Example
from scanner.vision.preprocess import upright_crops
from scanner.vision.profile import Taught
from scanner.vision.recogniser import Recogniser

Corrected = tuple[tuple[float, float], str]  # the centre of a card's index box, its code
GROUPS = ("red_threes", "leftovers", "unplaced")  # a reading's groups beside its melds


def _cards(reading: dict) -> dict[int, dict]:
    groups = [*reading.get("melds", []), *(reading.get(g, []) for g in GROUPS)]
    return {card["id"]: card for group in groups for card in group if "id" in card}


def corrected_cards(first: dict, final: dict, classes: Sequence[str]) -> list[Corrected]:
    """The cards of a scan read as ``first`` whose code the players changed by ``final`` (the
    reading as corrected), each as the centre of the index it was read from and the code given;
    only codes that are classes of the classifier (``classes``), only cards read from an index."""
    read, now = _cards(first), _cards(final)
    corrected = []
    for card_id, card in read.items():
        later = now.get(card_id)
        box = card.get("box")
        if later is None or later["code"] == card["code"] or not box or len(box) != 4:
            continue
        if later["code"] in classes:
            x0, y0, x1, y1 = (float(v) for v in box)
            corrected.append((((x0 + x1) / 2, (y0 + y1) / 2), later["code"]))
    return corrected


def corrected_examples(
    recogniser: Recogniser, frame: np.ndarray, corrected: Sequence[Corrected], scan_id: int
) -> list[Example]:
    """The examples ``corrected`` (``corrected_cards``) teach, cut from ``frame`` (the scan's
    photo, RGB) where ``recogniser`` marks each card's index, and its far corner's where the
    card is read at both corners: both are printed alike, and a card is read from both. A card
    whose index it no longer marks within half the index's size of where it was read teaches
    nothing."""
    if not corrected:
        return []
    reading = recogniser.read(frame)
    marks = [r.index for r in reading.indices]
    chosen, codes = [], []
    for centre, code in corrected:
        near = _nearest(marks, centre)
        if near is None:
            continue
        chosen.append(near)
        codes.append(code)
        card = next((c for c in reading.cards if _holds(c, near)), None)
        if card is not None and card.other_corner is not None:
            far = _nearest(marks, card.other_corner)
            if far is not None and far is not near:
                chosen.append(far)
                codes.append(code)
    if not chosen:
        return []
    crops = upright_crops(as_read(frame, reading), chosen, recogniser.contract)
    taught = [Taught(code, crop) for code, crop in zip(codes, crops, strict=True)]
    return examples_of(taught, source="corrected", scan_id=scan_id)


def _nearest(marks: Sequence, point: tuple[float, float]):
    """The mark of ``marks`` nearest ``point`` within half its index's size; None if none."""
    near = [(math.dist((m.x, m.y), point), n, m) for n, m in enumerate(marks)]
    near = [item for item in near if item[0] <= max(item[2].index_w, item[2].index_h) / 2]
    return min(near, key=lambda item: item[:2])[2] if near else None


def _holds(card, mark) -> bool:
    """Whether ``card`` was read from ``mark`` (its index box holds the mark's centre)."""
    x0, y0, x1, y1 = card.index_box
    return x0 <= mark.x <= x1 and y0 <= mark.y <= y1

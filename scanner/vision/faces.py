"""A card's face read where nothing lies on it (pure numpy and OpenCV).

An index a few pixels across is often read as another rank of like shape (a 5 as an 8, a 6 as
a 9), and where a whole fan's indices are read so, its cards agree on the wrong rank. The top
card of a fan, read at both its corners, lies in plain view: its face shows the rank again,
many times larger than the index (the special deck's numeral and word fill its middle, a
standard card's pips can be counted). The face reader (``face.onnx``,
``model/recogniser/faces.py``) reads that face, cut out upright from the card's outline, as
one of the classifier's classes, or "not an index" where it sees no whole face (an outline
that runs off the card, a card half covered); its reading weighs the card's own, and so the
rank its meld reads (``melds.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from scanner.vision.cards import CardReading, weighed_reading
from scanner.vision.contract import FACE_H, FACE_W

# Each chosen in model/experiments/face-reader.md:
# A face read "not an index" at least this sure says nothing of the card.
FACE_NONE = 0.5
# The face's reading weighs the card's classes as FLOOR + its probability: a face read wrong
# (a face blurred flat, half of it another card's) leaves the index's reading a say; 0.003 read
# better than 0.01.
FLOOR = 0.003
# A card read at one corner may lie under others, its outline over theirs: its face counts only
# where the reader names one class at least this sure and "not an index" at most ONE_CORNER_NONE
# (counted as a card's at both corners is, it moved more such cards wrong than right).
ONE_CORNER_SURE = 0.9
ONE_CORNER_NONE = 0.05


# A court card's face is its picture, which every deck draws its own way: a face reader that
# learnt the training designs' pictures read the real photos' Queens as Kings. Their face says
# only that the card is a court card of its colour; which one, the index says.
COURTS = (("JR", "QR", "KR"), ("JB", "QB", "KB"))


def faces_to_read(cards: Sequence[CardReading]) -> list[int]:
    """The cards whose face may lie in view: those read at both corners, which nothing lies on,
    and those read at one corner whose outline holds no other card's index (one that does lies
    under that card); the latter's faces count only where read plainly (``with_face``)."""
    boxes = np.array([card.index_box for card in cards], np.float64).reshape(-1, 4)
    marks = (boxes[:, :2] + boxes[:, 2:]) / 2
    wanted = []
    for n, card in enumerate(cards):
        if card.probabilities is None:
            continue
        if card.corners < 2:
            holds = _inside(face_outline(card), marks)
            holds[n] = False  # its own index
            if holds.any():
                continue
        wanted.append(n)
    return wanted


def _inside(outline: Sequence[Sequence[float]], points: np.ndarray) -> np.ndarray:
    """Which of ``points`` [n, 2] lie inside the convex ``outline`` (its corners in order).
    cv2.pointPolygonTest weighs one point a call, and a busy frame asks for every card's
    outline against every index: thousands of calls a frame."""
    corners = np.float64(outline)
    edges = np.roll(corners, -1, axis=0) - corners
    to_points = points[:, None, :] - corners[None, :, :]
    cross = edges[None, :, 0] * to_points[..., 1] - edges[None, :, 1] * to_points[..., 0]
    return (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)


def face_outline(card: CardReading) -> tuple[tuple[float, float], ...]:
    """The outline to cut ``card``'s face from: its outline, moved so that its centre lies
    midway between its two corners' indices where both were read: the locator's guess at the
    card's centre from one index can lie a fifth of the card off, and a face cut there shows
    the card beside it."""
    outline = np.float64(card.polygon)
    if card.other_corner is not None:
        x0, y0, x1, y1 = card.index_box
        middle = (np.array(((x0 + x1) / 2, (y0 + y1) / 2)) + card.other_corner) / 2
        outline += middle - outline.mean(axis=0)
    return tuple(map(tuple, outline))


def face_images(frame: np.ndarray, outlines: Sequence[Sequence[Sequence[float]]]) -> np.ndarray:
    """Each card outline (top-left, top-right, bottom-right, bottom-left as its index reads:
    ``CardReading.polygon``) cut out of ``frame`` upright, FACE_W × FACE_H: uint8 [n,
    FACE_H, FACE_W, 3], as the face reader learns and reads them."""
    target = np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]])
    faces = np.empty((len(outlines), FACE_H, FACE_W, 3), np.uint8)
    for n, outline in enumerate(outlines):
        matrix = cv2.getPerspectiveTransform(np.float32(outline), target)
        # bilinear: OpenCV's warps take INTER_AREA for it anyway
        faces[n] = cv2.warpPerspective(
            frame, matrix, (FACE_W, FACE_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return faces


def with_face(
    card: CardReading, face: np.ndarray, classes: Sequence[str], none: int, min_confidence: float
) -> CardReading:
    """``card`` with its class probabilities weighed by its face's (``face``, over
    ``classes``, summing to 1); as read where the face reader saw no face (FACE_NONE). A card
    whose face moves its code asks for a check. A card read at one corner only counts its face
    where it is read plainly (ONE_CORNER_SURE, ONE_CORNER_NONE)."""
    if card.probabilities is None or face[none] >= FACE_NONE:
        return card
    if card.corners < 2 and (face[none] > ONE_CORNER_NONE or face.max() < ONE_CORNER_SURE):
        return card
    face = face.copy()
    for court in COURTS:
        at = [list(classes).index(code) for code in court]
        face[at] = face[at].sum()
    weighed = card.probabilities * (face / max(1.0 - float(face[none]), 1e-12) + FLOOR)
    weighed[none] = card.probabilities[none]
    read = weighed_reading(card, weighed, classes, none, min_confidence)
    return (
        read if read is card else replace(read, probabilities=weighed / max(weighed.sum(), 1e-12))
    )

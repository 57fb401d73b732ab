"""A frame with what the recogniser read drawn on it (for ``handfoot scan --annotate``)."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from scanner.vision.cards import CardReading

CARD_COLOUR = (40, 200, 70)  # RGB
INDEX_COLOUR = (40, 140, 255)
CHECK_COLOUR = (255, 140, 0)  # orange: a reading a person should check
FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(frame: np.ndarray, cards: Iterable[CardReading]) -> np.ndarray:
    """A copy of the RGB ``frame`` with each card's outline, its index box and its code and
    confidence; cards flagged ``check`` are drawn in orange."""
    image = np.ascontiguousarray(frame).copy()
    thick = max(1, round(max(image.shape[:2]) / 800))
    scale = 0.45 * thick
    for card in cards:
        colour = CHECK_COLOUR if card.check else CARD_COLOUR
        polygon = np.round(np.array(card.polygon)).astype(np.int32)
        cv2.polylines(image, [polygon], True, colour, thick, cv2.LINE_AA)
        x0, y0, x1, y1 = (round(value) for value in card.index_box)
        box_colour = CHECK_COLOUR if card.check else INDEX_COLOUR
        cv2.rectangle(image, (x0, y0), (x1, y1), box_colour, thick, cv2.LINE_AA)
        text = f"{card.code} {card.confidence:.2f}" + (" ?" if card.check else "")
        _label(image, text, (x0, max(y0 - 3 * thick, 10)), colour, scale, thick)
    return image


def _label(image, text, origin, colour, scale, thick) -> None:
    (width, height), base = cv2.getTextSize(text, FONT, scale, thick)
    x, y = origin
    cv2.rectangle(image, (x, y - height - 2), (x + width + 2, y + base), (0, 0, 0), cv2.FILLED)
    cv2.putText(image, text, (x + 1, y), FONT, scale, colour, thick, cv2.LINE_AA)

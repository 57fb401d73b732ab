"""The scan drawn on its frame: what the web page and the panel show, and ``--annotate`` writes.

Each meld is outlined and numbered in green when legal, in red with the first reason when
not, in amber when its spacing says a card may be missing or counted twice; every card
carries its code; a card to check gets an amber box and a question mark; red threes are
outlined in blue and cards that count nowhere in grey.
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.table.modes import TableResult
from scanner.vision.cards import CardReading

LEGAL = (30, 190, 60)  # RGB
ILLEGAL = (230, 40, 40)
CHECK = (255, 170, 0)
RED_THREE = (40, 120, 255)
UNPLACED = (150, 150, 150)
LEFTOVER = (230, 230, 230)
FONT = cv2.FONT_HERSHEY_SIMPLEX
MAX_REASON = 48  # characters of a reason drawn on the image; the page shows the whole sentence


def annotate_table(image: np.ndarray, result: TableResult | None, cards=()) -> np.ndarray:
    """A copy of the RGB ``image`` with ``result`` drawn on it (or just ``cards`` when there is
    no result, e.g. a scan without rules)."""
    canvas = np.ascontiguousarray(image).copy()
    pen = _Pen(canvas)
    if result is None:
        for card in cards:
            pen.card(card, LEFTOVER)
        return canvas
    for number, meld in enumerate(result.melds, start=1):
        colour = LEGAL if meld.verdict.legal else ILLEGAL
        pen.outline(meld.outline, colour)
        for card in meld.cards:
            pen.card(card, colour)
        text = f"{number}: {meld.verdict.label} {meld.verdict.points}"
        reason = None if meld.verdict.legal else meld.verdict.problems[0].message
        if meld.doubt is not None and meld.verdict.legal:
            reason, colour = meld.doubt, CHECK
        if reason is not None:
            text = f"{number}: {reason[:MAX_REASON]}{'...' if len(reason) > MAX_REASON else ''}"
        pen.tag(meld.outline, text, colour)
    for card in result.red_threes:
        pen.outline(card.polygon, RED_THREE)
        pen.card(card, RED_THREE)
    for card in result.leftovers:
        pen.card(card, LEFTOVER)
    for item in result.unplaced:
        pen.outline(item.card.polygon, UNPLACED)
        pen.card(item.card, UNPLACED)
    for item in result.strays:  # not a card, most likely: marked, not outlined
        pen.card(item.card, UNPLACED)
    return canvas


class _Pen:
    def __init__(self, canvas: np.ndarray) -> None:
        self.canvas = canvas
        self.thick = max(2, round(max(canvas.shape[:2]) / 500))
        self.scale = 0.3 * self.thick

    def outline(self, points, colour) -> None:
        polygon = np.round(np.array(points, np.float64)).astype(np.int32)
        cv2.polylines(self.canvas, [polygon], True, colour, self.thick, cv2.LINE_AA)

    def card(self, card: CardReading, colour) -> None:
        x0, y0, x1, y1 = (round(v) for v in card.index_box)
        if card.check:
            cv2.rectangle(self.canvas, (x0, y0), (x1, y1), CHECK, self.thick + 1, cv2.LINE_AA)
        text = f"{card.code}?" if card.check else card.code
        self.label(text, (x0, max(y0 - self.thick, 12)), CHECK if card.check else colour)

    def tag(self, outline, text: str, colour) -> None:
        points = np.array(outline, np.float64)
        x, y = points[:, 0].min(), points[:, 1].max()
        height = self.canvas.shape[0]
        self.label(text, (round(x), round(min(y + 22 * self.thick, height - 4))), colour)

    def label(self, text: str, origin, colour) -> None:
        (width, height), base = cv2.getTextSize(text, FONT, self.scale, self.thick)
        x, y = origin
        x = int(np.clip(x, 0, max(0, self.canvas.shape[1] - width - 2)))
        y = int(np.clip(y, height + 2, self.canvas.shape[0] - base))
        cv2.rectangle(self.canvas, (x, y - height - 2), (x + width + 2, y + base), (0, 0, 0), -1)
        cv2.putText(
            self.canvas, text, (x + 1, y), FONT, self.scale, colour, self.thick, cv2.LINE_AA
        )

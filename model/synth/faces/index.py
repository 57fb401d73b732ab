"""Corner indices: build the ink of one index, stamp it in both corners, and measure its quad.

An index is built once as a small patch of ink layers (each a coverage mask with a colour). The
top-left copy reads upright; the bottom-right copy is the same patch turned half a turn. Label
quads come from the union of the layers' coverage, exactly what was drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..types import IndexMark
from .draw import Color, paint

MARGIN = 2  # px of air around the drawn pixels in a label quad


@dataclass(frozen=True)
class Ink:
    """Ink layers of equal shape, painted in order."""

    layers: tuple[tuple[np.ndarray, Color], ...]

    @property
    def shape(self) -> tuple[int, int]:
        return self.layers[0][0].shape  # type: ignore[return-value]

    def coverage(self) -> np.ndarray:
        return np.maximum.reduce([m for m, _ in self.layers])


def compose(parts: list[tuple[np.ndarray, Color, int, int]]) -> Ink:
    """Place masks (mask, colour, x, y) on one patch; parts of one colour share a layer."""
    x0 = min(x for _, _, x, _ in parts)
    y0 = min(y for _, _, _, y in parts)
    w = max(x + m.shape[1] for m, _, x, _ in parts) - x0
    h = max(y + m.shape[0] for m, _, _, y in parts) - y0
    by_colour: dict[Color, np.ndarray] = {}
    for m, c, x, y in parts:
        layer = by_colour.setdefault(tuple(c), np.zeros((h, w), np.uint8))  # type: ignore[arg-type]
        region = layer[y - y0 : y - y0 + m.shape[0], x - x0 : x - x0 + m.shape[1]]
        np.maximum(region, m, out=region)
    for m in by_colour.values():
        m.setflags(write=False)
    return Ink(tuple((m, c) for c, m in by_colour.items()))


def stack(
    top: np.ndarray, bottom: np.ndarray, gap: int, align: str = "center"
) -> list[tuple[np.ndarray, int, int]]:
    """Two masks one above the other, centred or left-aligned: [(mask, x, y), …]."""
    w = max(top.shape[1], bottom.shape[1])

    def x(m: np.ndarray) -> int:
        return 0 if align == "left" else (w - m.shape[1]) // 2

    return [(top, x(top), 0), (bottom, x(bottom), top.shape[0] + gap)]


def place(
    img: np.ndarray, ink: Ink | None, margin: tuple[int, int], draw: bool, corners: int = 2
) -> tuple[IndexMark, ...]:
    """Stamp ``ink`` top-left (upright) and, with two ``corners``, bottom-right (turned) when
    ``draw``; return the label quads either way."""
    if ink is None:
        return ()
    H, W = img.shape[:2]
    h, w = ink.shape
    mx, my = margin
    cov = ink.coverage()
    ys, xs = np.nonzero(cov)
    bx0, by0, bx1, by1 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
    marks = []
    for orientation in (0, 180)[:corners]:
        if orientation == 0:
            x, y = mx, my
            qx0, qy0, qx1, qy1 = x + bx0, y + by0, x + bx1, y + by1
        else:
            x, y = W - mx - w, H - my - h
            qx0, qy0, qx1, qy1 = x + w - bx1, y + h - by1, x + w - bx0, y + h - by0
        if draw:
            for m, c in ink.layers:
                paint(img, m if orientation == 0 else m[::-1, ::-1], c, x, y)
        qx0, qy0 = max(qx0 - MARGIN, 0), max(qy0 - MARGIN, 0)
        qx1, qy1 = min(qx1 + MARGIN, W), min(qy1 + MARGIN, H)
        box = [(qx0, qy0), (qx1, qy0), (qx1, qy1), (qx0, qy1)]
        if orientation == 180:  # read from the card's bottom-right corner
            box = box[2:] + box[:2]
        marks.append(IndexMark(np.array(box, np.float32), orientation))
    return tuple(marks)

"""A computer keyboard beside the cards: rows of keys, each with its letter, digit or word.

A key's legend is a capital letter or a digit 3–5 mm tall on a square cap: the size and look of
a card's corner index, J, Q, K and A among them. The real webcam photos of cards on a desk
showed it: a keyboard's keys were read as cards. The renderer draws one so the networks learn
that a key is not a card.
"""

from __future__ import annotations

import cv2
import numpy as np

from model.synth.prop_draw import PX_PER_MM, Layers, blank, grain, mask, rounded_rect
from model.synth.types import Prop

# the rows of a QWERTY board (a Nordic board's ÅÄÖ/ÆØ keys drawn as the letters Hershey has)
ROWS = (
    "1234567890",
    "QWERTYUIOP",
    "ASDFGHJKL",
    "ZXCVBNM",
)
WORDS = ("Esc", "Tab", "Caps", "Shift", "Ctrl", "Alt", "Enter", "Del", "Fn", "Home", "End")
# (case, caps, legends): black, white, silver and grey boards
COLOURS = (
    ((28, 28, 30), (42, 42, 46), (225, 225, 225)),
    ((232, 232, 228), (246, 246, 242), (40, 40, 44)),
    ((190, 192, 196), (238, 238, 240), (50, 50, 56)),
    ((70, 72, 76), (96, 98, 102), (240, 240, 240)),
)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_PLAIN)
PITCH_MM = 19.0  # key centre to key centre


def _legend(ink: np.ndarray, text: str, box_mm, font: int, cap_mm: float, at_corner: bool) -> None:
    """``text`` on ``ink`` (255 where inked) in the key ``box_mm`` (x0, y0, x1, y1): centred,
    or in the top-left corner as many boards print it."""
    (_, tall), _ = cv2.getTextSize("H", font, 1.0, 1)
    scale = cap_mm * PX_PER_MM / max(tall, 1)
    thick = max(1, round(cap_mm * PX_PER_MM / 10))
    (wide, _), _ = cv2.getTextSize(text, font, scale, thick)
    x0, y0, x1, y1 = (v * PX_PER_MM for v in box_mm)
    if at_corner:
        x, y = x0 + 0.18 * (x1 - x0), y0 + 0.2 * (y1 - y0) + cap_mm * PX_PER_MM
    else:
        x, y = (x0 + x1 - wide) / 2, (y0 + y1 + cap_mm * PX_PER_MM) / 2
    cv2.putText(ink, text, (round(x), round(y)), font, scale, 255, thick, cv2.LINE_AA)


def render_keyboard(rng: np.random.Generator) -> Prop:
    """A keyboard from above: a case, rows of square caps with their legends, a long space
    bar; a full board or a compact one, in one of a few colours."""
    columns = 10 if rng.random() < 0.5 else 12
    rows = len(ROWS) + 1
    margin = float(rng.uniform(6, 14))
    w_mm = 2 * margin + (columns + 2.5) * PITCH_MM
    h_mm = 2 * margin + rows * PITCH_MM
    size = blank((w_mm, h_mm))
    w, h = size
    layers = Layers(size)
    case_colour, cap_colour, legend_colour = COLOURS[rng.integers(len(COLOURS))]
    case = mask(size, rounded_rect(0.3, 0.3, w_mm - 0.3, h_mm - 0.3, 4.0))
    layers.paint(case, np.asarray(case_colour, np.float32))

    caps = np.zeros((h, w), np.uint8)
    ink = np.zeros((h, w), np.uint8)
    font = int(rng.choice(FONTS))
    cap_mm = float(rng.uniform(3.0, 5.0))
    at_corner = rng.random() < 0.4
    gap = float(rng.uniform(1.5, 3.0))
    for r in range(rows):
        y0 = margin + r * PITCH_MM
        keys: list[tuple[str, float]] = []  # legend and width in pitches
        if r < len(ROWS):
            keys.append((str(rng.choice(WORDS)), 1.0 + 0.25 * r))
            keys += [(ch, 1.0) for ch in ROWS[r]]
        else:
            keys += [(str(rng.choice(WORDS)), 1.5), ("", 6.0), (str(rng.choice(WORDS)), 1.5)]
        x = margin + 0.0
        for legend, span in keys:
            right = x + span * PITCH_MM
            if right > w_mm - margin + 0.01:
                break
            box = (x + gap / 2, y0 + gap / 2, right - gap / 2, y0 + PITCH_MM - gap / 2)
            cv2.fillPoly(caps, [_rect_px(box)], 255, cv2.LINE_AA)
            if legend:
                small = len(legend) > 2
                _legend(ink, legend, box, font, cap_mm * (0.55 if small else 1.0), at_corner)
            x = right
    layers.paint(caps.astype(np.float32) / 255.0 * case, np.asarray(cap_colour, np.float32))
    # each cap a little raised: its lower edge in shadow, its upper edge catching the lamp
    edges = cv2.Sobel(caps.astype(np.float32) / 255.0, cv2.CV_32F, 0, 1, ksize=3)
    layers.shade(1.0 - 0.25 * np.clip(edges, 0, 1) + grain(rng, size, 0.8) * 0.01)
    layers.paint(
        ink.astype(np.float32) / 255.0 * rng.uniform(0.75, 0.95) * case,
        np.asarray(legend_colour, np.float32),
    )
    return Prop("keyboard", layers.rgba(), (w_mm, h_mm))


def _rect_px(box_mm) -> np.ndarray:
    x0, y0, x1, y1 = (v * PX_PER_MM for v in box_mm)
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.int32)

"""The other cards in a box: rules and hint cards, promotional cards, adverts and score cards.

They are card-sized and printed like the deck, but carry text blocks, small tables and icons in
the middle, never a lone rank-and-suit in a corner, so a camera must learn to ignore them.
"""

from __future__ import annotations

import numpy as np

from ..types import FACE_HEIGHT, CardStyle
from . import fonts, glyphs
from .draw import Color, circle, fill, lines, paint, rect, rng_for, star_poly, stock
from .standard import draw_border
from .styles import Design

KINDS = {"standard": ("ad", "score-card"), "special": ("rules", "hint", "promo")}
ALL_KINDS = ("rules", "hint", "promo", "ad", "score-card")

_TEXT = (
    "each player draws two cards from the stock and may meld three or more cards of one rank "
    "wild cards may join a meld when the naturals outnumber them a group of seven is complete "
    "the side that goes out earns a bonus cards left in hand count against you keep the foot "
    "face down until the hand is played out discard one card to end your turn"
)
_WORDS = tuple(_TEXT.split(" "))


def _paragraph(img, face, x, y, width, n_lines, px, colour, rng) -> int:
    """Justified-looking lines of running text; returns the y below the block."""
    for k in range(n_lines):
        line = ""
        while True:
            w = _WORDS[int(rng.integers(len(_WORDS)))]
            trial = f"{line} {w}".strip()
            if fonts.line_mask(face, trial, px).shape[1] > width:
                break
            line = trial
        if k == n_lines - 1:
            line = " ".join(line.split()[: max(2, len(line.split()) // 2)])
        m = fonts.line_mask(face, line, px)
        paint(img, m, colour, x, y)
        y += round(px * 1.35)
    return y


def _title(img, face, text, cy, cap, colour, W) -> int:
    m = fonts.text_mask(face + " Bold" if "Bold" not in face else face, text, cap)
    if m.shape[1] > W - 44:
        from .draw import scaled

        m = scaled(m, (W - 44) / m.shape[1])
    paint(img, m, colour, (W - m.shape[1]) // 2, cy)
    return cy + m.shape[0]


def _table(img, face, x, y, rows, col_w, px, colour, grid: Color) -> int:
    row_h = round(px * 1.7)
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            m = fonts.line_mask(face, text, px)
            paint(img, m, colour, x + 3 + sum(col_w[:c]), y + r * row_h + 1)
    total_w = sum(col_w)
    for r in range(len(rows) + 1):
        rect(img, x, y + r * row_h - 1, x + total_w, y + r * row_h - 1, grid)
    cx = x
    for w in [0, *col_w]:
        cx += w
        rect(img, cx, y - 1, cx, y + len(rows) * row_h - 1, grid)
    return y + len(rows) * row_h


def draw_nonplaying(style: CardStyle, design: Design, kind: str, variant: int) -> np.ndarray:
    W, H = style.width, FACE_HEIGHT
    img = stock(W, H, design.stock, design.mottle, style.name).copy()
    draw_border(img, design)
    rng = rng_for(style.name, kind, variant)
    face = design.text_face
    ink = (30, 30, 36)
    accent = design.red if variant % 2 == 0 else (28, 60, 140)
    x, tw = 22, W - 44
    if kind == "rules":
        y = _title(img, face, "HOW TO PLAY", 26, 14, accent, W) + 10
        for _ in range(3):
            circle(img, (x + 3, y + 5), 2.5, accent)
            y = _paragraph(img, face, x + 10, y, tw - 10, 4, 9, ink, rng) + 6
    elif kind == "hint":
        y = _title(img, face, "HINTS", 28, 16, accent, W) + 12
        rows = [["card", "points"], ["Lord", "20"], ["Jester", "25"], ["Joker", "50"],
                ["1 - 6", "5"], ["7 - 12", "10"]]  # fmt: skip
        y = _table(img, face, x + 8, y, rows, [tw // 2, tw // 2 - 16], 9, ink, (120, 120, 130))
        y = _paragraph(img, face, x, y + 12, tw, 5, 9, ink, rng)
        for k in range(3):
            _icon(img, W / 2 + (k - 1) * 40, min(H - 40, y + 22), accent, k)
    elif kind == "promo":
        fill(img, [star_poly(W / 2, H * 0.32, W * 0.3, W * 0.13, 12)], accent)
        y = _title(img, face, "HAND 'N FOOT", int(H * 0.56), 17, accent, W) + 10
        y = _title(img, face, "THE FAMILY CARD GAME", y, 8, ink, W) + 14
        _paragraph(img, face, x, y, tw, 4, 9, ink, rng)
    elif kind == "ad":
        circle(img, (W / 2, H * 0.3), W * 0.22, accent, 3)
        fill(img, [star_poly(W / 2, H * 0.3, W * 0.15, W * 0.06, 6)], accent)
        y = _title(img, face, "PREMIUM QUALITY", int(H * 0.5), 12, accent, W) + 8
        y = _title(img, face, "PLASTIC COATED - SMOOTH FINISH", y, 6, ink, W) + 14
        _paragraph(img, face, x, y, tw, 5, 9, ink, rng)
    elif kind == "score-card":
        y = _title(img, face, "SCORE", 24, 14, accent, W) + 10
        rows = [["deal", "WE", "THEY"]] + [[f"{k}", "", ""] for k in range(1, 5)]
        rows += [["books", "", ""], ["total", "", ""]]
        y = _table(
            img,
            face,
            x,
            y,
            rows,
            [tw // 3 + 4, tw // 3, tw - 2 * (tw // 3) - 4],
            9,
            ink,
            (110, 110, 120),
        )
        _paragraph(img, face, x, y + 12, tw, 4, 8, ink, rng)
    else:
        raise ValueError(f"{kind!r} is not a non-playing card kind; known: {ALL_KINDS}")
    return img


def _icon(img, cx, cy, colour, k) -> None:
    if k == 0:
        fill(img, [star_poly(cx, cy, 11, 5)], colour)
    elif k == 1:
        circle(img, (cx, cy), 10, colour, 2)
        lines(img, [np.array([[cx - 5, cy], [cx - 1, cy + 5], [cx + 6, cy - 5]])], colour, 2)
    else:
        m = glyphs.suit_mask("H", "rounded", 18)
        paint(img, m, colour, round(cx - m.shape[1] / 2), round(cy - m.shape[0] / 2))

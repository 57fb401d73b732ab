"""Faces of the special Hand 'N Foot deck: numbers 1–12 and LORD, LADY, VILLAIN, JESTER, JOKER.

The real printing is not documented, so the styles spread over plausible designs: a colour per
rank or one ink for all, a big numeral (in a ring, on a band or plain), simple centre art for
the word cards, and corner indices that are the number (6 and 9 underlined in some styles) or
the word (abbreviated, in small capitals, or stacked vertically).
"""

from __future__ import annotations

import functools

import numpy as np

from ..types import FACE_HEIGHT, CardStyle, IndexMark
from . import court, fonts
from .draw import (
    Color,
    arc_pts,
    circle,
    ellipse,
    fill,
    lines,
    mix,
    paint,
    rect,
    rng_for,
    star_poly,
    stock,
)
from .index import Ink, compose, place
from .standard import draw_border
from .styles import Design

NUMBERS = tuple(str(n) for n in range(1, 13))
WORDS = ("LORD", "LADY", "VILLAIN", "JESTER", "JOKER")
ABBR = {"LORD": "LO", "LADY": "LA", "VILLAIN": "VI", "JESTER": "JE", "JOKER": "JK"}

_RAINBOW: dict[str, Color] = {
    "1": (200, 30, 45), "2": (224, 96, 20), "3": (190, 140, 0), "4": (60, 140, 40),
    "5": (0, 130, 120), "6": (20, 90, 180), "7": (70, 50, 160), "8": (140, 40, 140),
    "9": (190, 30, 110), "10": (120, 70, 30), "11": (30, 110, 80), "12": (40, 40, 120),
    "LORD": (110, 40, 150), "LADY": (205, 40, 120), "VILLAIN": (25, 25, 30),
    "JESTER": (20, 130, 70), "JOKER": (225, 110, 0),
}  # fmt: skip


def colour_of(design: Design, name: str) -> Color:
    if design.colours == "drawn" and design.hues:
        return design.hues[(NUMBERS + WORDS).index(name) % len(design.hues)]
    if design.colours == "mono":
        return (28, 36, 92) if name != "VILLAIN" else design.black
    if design.colours == "duo":
        if name in WORDS:
            return design.black if name in ("VILLAIN", "JESTER") else design.red
        return design.red if int(name) % 2 else design.black
    return _RAINBOW[name]


def cased(design: Design, text: str) -> str:
    """A word card's word (or its abbreviation) as the design prints it: "LORD" or "Lord"."""
    return text.title() if design.word_case == "title" else text


@functools.lru_cache(maxsize=512)
def special_ink(style: CardStyle, design: Design, name: str) -> Ink:
    c = colour_of(design, name)
    tf, cap, wt = style.typeface, design.rank_cap, design.weight
    if name in NUMBERS:
        track = 0.04 if len(name) > 1 else None
        m = fonts.text_mask(tf, name, cap, 1.0, track, wt)
        parts = [(m, c, 0, 0)]
        if design.underline69 and name in ("6", "9"):
            bar = np.full((max(2, cap // 12), m.shape[1]), 255, np.uint8)
            parts.append((bar, c, 0, m.shape[0] + max(2, cap // 8)))
        return compose(parts)
    if design.word_corner == "abbr":
        m = fonts.text_mask(tf, cased(design, ABBR[name]), round(cap * 0.62), 1.0, None, wt)
        return compose([(m, c, 0, 0)])
    if design.word_corner == "word":
        return compose(
            [(fonts.text_mask(tf, cased(design, name), round(cap * 0.4), 0.9, None, wt), c, 0, 0)]
        )
    letters = [
        fonts.text_mask(tf, ch, round(cap * 0.4), 1.0, None, wt) for ch in cased(design, name)
    ]
    w = max(m.shape[1] for m in letters)
    parts, y = [], 0
    for m in letters:
        parts.append((m, c, (w - m.shape[1]) // 2, y))
        y += m.shape[0] + max(2, cap // 10)
    return compose(parts)


def special_face(
    style: CardStyle, design: Design, name: str, with_index: bool
) -> tuple[np.ndarray, tuple[IndexMark, ...]]:
    W, H = style.width, FACE_HEIGHT
    img = stock(W, H, design.stock, design.mottle, style.name).copy()
    draw_border(img, design)
    c = colour_of(design, name)
    rng = rng_for(style.name, name)
    if name in NUMBERS:
        _numeral(img, style, design, name, c)
    else:
        _word_card(img, style, design, name, c, rng)
    marks = place(img, special_ink(style, design, name), design.margin, with_index, design.corners)
    return img, marks


def _numeral(img, style: CardStyle, design: Design, name: str, c: Color) -> None:
    W, H = img.shape[1], img.shape[0]
    cx, cy = W / 2, H / 2
    fg = c
    if design.centre == "ring":
        circle(img, (cx, cy), W * 0.33, mix(design.stock, c, 0.12))
        circle(img, (cx, cy), W * 0.33, c, 3)
        circle(img, (cx, cy), W * 0.3, c, 1)
    elif design.centre == "band":
        rect(img, W * 0.2, cy - H * 0.17, W * 0.8, cy + H * 0.17, c)
        fg = design.stock
    else:
        for s in (-1, 1):
            fill(img, [star_poly(cx, cy + s * H * 0.27, 12, 5)], c)
    cap = int(H * (0.22 if len(name) > 1 else 0.26))
    m = fonts.text_mask(style.typeface, name, cap, 0.85 if len(name) > 1 else 1.0, None, 1.2)
    paint(img, m, fg, round(cx - m.shape[1] / 2), round(cy - m.shape[0] / 2))
    if name in ("6", "9"):
        bar = np.full((4, m.shape[1]), 255, np.uint8)
        paint(img, bar, fg, round(cx - m.shape[1] / 2), round(cy + m.shape[0] / 2 + 6))


def _word_card(img, style: CardStyle, design: Design, name: str, c: Color, rng) -> None:
    W, H = img.shape[1], img.shape[0]
    cx, cy = W / 2, H / 2
    pal = dict(court.PALETTES["classic"])
    if design.colours == "mono":
        pal = {k: c for k in pal} | {"white": design.stock, "skin": design.stock}
    art = {"LORD": _crown, "LADY": _flower, "VILLAIN": _mask, "JESTER": _hat, "JOKER": _burst}
    art[name](img, cx, cy, W * 0.62, c, pal)
    word = fonts.text_mask(
        style.typeface, cased(design, name), max(12, int(H * 0.055)), 1.0, None, design.weight
    )
    if word.shape[1] > W * 0.62:
        from .draw import scaled

        word = scaled(word, W * 0.62 / word.shape[1])
    x = round(cx - word.shape[1] / 2)
    paint(img, word, c, x, round(H * 0.74))
    paint(img, word[::-1, ::-1], c, x, round(H * 0.26 - word.shape[0]))


def _crown(img, cx, cy, w, c, pal) -> None:
    pts = [[cx - w / 2, cy + w * 0.25], [cx - w / 2, cy - w * 0.2]]
    for k in range(1, 5):
        pts.append([cx - w / 2 + k * w / 4 - w / 8, cy - w * 0.02])
        pts.append([cx - w / 2 + k * w / 4, cy - w * 0.36])
    pts += [[cx + w / 2, cy - w * 0.2], [cx + w / 2, cy + w * 0.25]]
    crown = np.array(pts)
    fill(img, [crown], pal["yellow"])
    lines(img, [crown], c, 2, True)
    rect(img, cx - w / 2, cy + w * 0.12, cx + w / 2, cy + w * 0.25, c)
    for k in range(4):
        circle(img, (cx - w / 2 + k * w / 4 + w / 8, cy + w * 0.185), w * 0.035, pal["white"])
    for k in range(1, 5):
        circle(img, (cx - w / 2 + k * w / 4, cy - w * 0.38), w * 0.04, pal["red"])


def _flower(img, cx, cy, w, c, pal) -> None:
    for k in range(8):
        a = k * np.pi / 4
        ellipse(
            img,
            (cx + np.cos(a) * w * 0.2, cy + np.sin(a) * w * 0.2),
            (w * 0.15, w * 0.08),
            c,
            -1,
            np.rad2deg(a),
        )
        ellipse(
            img,
            (cx + np.cos(a) * w * 0.2, cy + np.sin(a) * w * 0.2),
            (w * 0.15, w * 0.08),
            pal["black"],
            1,
            np.rad2deg(a),
        )
    circle(img, (cx, cy), w * 0.1, pal["yellow"])
    circle(img, (cx, cy), w * 0.1, pal["black"], 1)


def _mask(img, cx, cy, w, c, pal) -> None:
    t = np.linspace(0, 2 * np.pi, 60)
    x = cx + w * 0.48 * np.sin(t)
    y = cy - w * 0.12 * np.cos(t) + w * 0.12 * np.abs(np.sin(t)) ** 3
    fill(img, [np.stack([x, y], 1)], c)
    for s in (-1, 1):
        ellipse(img, (cx + s * w * 0.2, cy), (w * 0.1, w * 0.06), pal["white"], -1, s * 12)
    # a top hat above, a curled moustache below
    rect(img, cx - w * 0.22, cy - w * 0.5, cx + w * 0.22, cy - w * 0.2, pal["black"])
    rect(img, cx - w * 0.36, cy - w * 0.24, cx + w * 0.36, cy - w * 0.17, pal["black"])
    rect(img, cx - w * 0.22, cy - w * 0.32, cx + w * 0.22, cy - w * 0.26, pal["red"])
    for s in (-1, 1):
        lines(
            img,
            [
                arc_pts(
                    cx + s * w * 0.14,
                    cy + w * 0.26,
                    w * 0.14,
                    w * 0.07,
                    (0 if s > 0 else 180),
                    (0 if s > 0 else 180) + s * -200,
                )
            ],
            pal["black"],
            3,
        )


def _hat(img, cx, cy, w, c, pal) -> None:
    court._cap(img, cx, cy + w * 0.2, w * 0.8, pal)


def _burst(img, cx, cy, w, c, pal) -> None:
    fill(img, [star_poly(cx, cy, w * 0.48, w * 0.2, 8)], pal["yellow"])
    lines(img, [star_poly(cx, cy, w * 0.48, w * 0.2, 8)], c, 1.5, True)
    circle(img, (cx, cy), w * 0.2, c)
    circle(img, (cx - w * 0.07, cy - w * 0.04), w * 0.03, pal["white"])
    circle(img, (cx + w * 0.07, cy - w * 0.04), w * 0.03, pal["white"])
    ellipse(img, (cx, cy + w * 0.03), (w * 0.11, w * 0.08), pal["white"], 2, 0, 10, 170)

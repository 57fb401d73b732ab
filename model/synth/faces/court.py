"""Procedural court art (J, Q, K) and joker art.

Court figures are double-ended like printed courts: a half-figure (crown or hat, hair, face,
collar, patterned robe, sword / flower / halberd) is drawn once and turned half a turn for the
other end, split by a straight ("classic", "modern") or diagonal ("diagonal") line. The robes
are busy on purpose and carry curls and letter- and digit-like ornaments: this is where
recognisers misread.
"""

from __future__ import annotations

import cv2
import numpy as np

from . import fonts, glyphs
from .draw import (
    Color,
    circle,
    ellipse,
    fill,
    lines,
    mix,
    paint,
    rect,
    star_poly,
)

PALETTES: dict[str, dict[str, Color]] = {
    "classic": dict(red=(200, 35, 42), blue=(36, 66, 152), yellow=(238, 190, 52),
                    black=(26, 26, 30), skin=(249, 224, 194), white=(250, 248, 240),
                    green=(40, 120, 72), hair=(226, 170, 40)),
    "warm": dict(red=(178, 44, 36), blue=(44, 62, 118), yellow=(226, 172, 62),
                 black=(42, 32, 26), skin=(240, 212, 172), white=(246, 238, 220),
                 green=(70, 110, 60), hair=(150, 90, 40)),
    "pastel": dict(red=(212, 86, 84), blue=(86, 116, 184), yellow=(242, 212, 112),
                   black=(50, 50, 60), skin=(250, 230, 205), white=(252, 250, 245),
                   green=(100, 160, 110), hair=(200, 160, 80)),
    "bright": dict(red=(232, 28, 52), blue=(18, 92, 204), yellow=(255, 202, 0),
                   black=(0, 0, 0), skin=(255, 220, 180), white=(255, 255, 255),
                   green=(0, 152, 92), hair=(60, 40, 30)),
}  # fmt: skip

_ORNAMENT_CHARS = "0123456789AJQKSEL"


def _inside(poly: np.ndarray, x: float, y: float, margin: float) -> bool:
    c = poly.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(c, (float(x), float(y)), True) >= margin


def _pattern(img, poly, kind, colours, step, rng) -> None:
    """Fill the inside of ``poly`` with a motif grid (diamonds, dots, crosses, chevrons,
    scallops or letter-like glyphs)."""
    x0, y0 = poly.min(0)
    x1, y1 = poly.max(0)
    s = step
    for j, y in enumerate(np.arange(y0 + s / 2, y1, s)):
        off = s / 2 if j % 2 else 0
        for i, x in enumerate(np.arange(x0 + s / 2 + off, x1, s)):
            if not _inside(poly, x, y, s * 0.3):
                continue
            c = colours[(i + j) % len(colours)]
            r = s * 0.32
            if kind == "diamond":
                fill(
                    img, [np.array([[x, y - r], [x + r * 0.7, y], [x, y + r], [x - r * 0.7, y]])], c
                )
            elif kind == "dot":
                circle(img, (x, y), r * 0.7, c)
                circle(img, (x, y), r * 0.25, colours[(i + j + 1) % len(colours)])
            elif kind == "cross":
                lines(
                    img,
                    [np.array([[x - r, y], [x + r, y]]), np.array([[x, y - r], [x, y + r]])],
                    c,
                    1.4,
                )
            elif kind == "chevron":
                lines(
                    img,
                    [np.array([[x - r, y - r * 0.5], [x, y + r * 0.5], [x + r, y - r * 0.5]])],
                    c,
                    1.5,
                )
            elif kind == "scallop":
                ellipse(img, (x, y), (r, r), c, 1.3, 0, 0, 180)
            else:  # "glyph": curls and strokes that read as letters and digits
                _ornament(img, x, y, s * 0.6, c, rng)


def _ornament(img, x, y, size, colour, rng) -> None:
    ch = _ORNAMENT_CHARS[int(rng.integers(len(_ORNAMENT_CHARS)))]
    a = np.deg2rad(rng.choice([0, 0, 90, 180, 270]) + rng.uniform(-15, 15))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    for s in glyphs.stroke_points(ch):
        p = (s - np.array([0.3, 0.5])) @ rot.T * size + np.array([x, y])
        lines(img, [p], colour, max(1.0, size * 0.13))


def _outline(img, poly, pal, t=1.0) -> None:
    lines(img, [poly], pal["black"], t, closed=True)


def _figure(
    img: np.ndarray, rank: str, ink: Color, suit: str, pal, rng, suit_design, flat, look=(1.0, 1.0)
) -> None:
    """One half-figure filling ``img`` (its bottom edge is the figure's waist)."""
    h, w = img.shape[:2]
    cx = w * (0.5 + rng.uniform(-0.06, 0.06))
    hy = h * 0.34  # head centre
    hr = (w * 0.12 * look[0], h * 0.15 * look[0])
    robe_a, robe_b = (pal["red"], pal["blue"]) if rng.random() < 0.5 else (pal["blue"], pal["red"])
    # the attribute behind the figure
    side = 1 if rng.random() < 0.5 else -1
    if rank == "K":
        blade = np.array([[cx + side * w * 0.3, h * 1.02], [cx + side * w * 0.4, h * 0.02]])
        lines(img, [blade], pal["black"], 5)
        lines(img, [blade], (200, 200, 205), 3)
        lines(
            img,
            [np.array([[cx + side * w * 0.24, h * 0.8], [cx + side * w * 0.44, h * 0.76]])],
            pal["yellow"],
            3,
        )
    elif rank == "J":
        pole = np.array([[cx - side * w * 0.34, h * 1.02], [cx - side * w * 0.4, h * 0.08]])
        lines(img, [pole], pal["black"], 3)
        tip = pole[1]
        fill(
            img,
            [np.array([tip + np.array((-7, 4)), tip + np.array((0, -10)), tip + np.array((7, 4))])],
            pal["yellow"],
        )
        _outline(
            img,
            np.array([tip + np.array((-7, 4)), tip + np.array((0, -10)), tip + np.array((7, 4))]),
            pal,
        )
    # robe
    robe = np.array(
        [
            [cx - w * 0.5, h],
            [cx - w * 0.45, h * 0.64],
            [cx - w * 0.2, h * 0.52],
            [cx + w * 0.2, h * 0.52],
            [cx + w * 0.45, h * 0.64],
            [cx + w * 0.5, h],
        ]
    )
    fill(img, [robe], robe_a)
    panel = np.array(
        [[cx - w * 0.13, h * 0.52], [cx + w * 0.13, h * 0.52], [cx + w * 0.2, h], [cx - w * 0.2, h]]
    )
    fill(img, [panel], pal["yellow"])
    sleeve = np.array(
        [
            [cx + side * w * 0.2, h * 0.52],
            [cx + side * w * 0.45, h * 0.64],
            [cx + side * w * 0.5, h],
            [cx + side * w * 0.26, h],
        ]
    )
    fill(img, [sleeve], robe_b)
    kinds = ["diamond", "dot", "cross", "chevron", "scallop", "glyph"]
    rng.shuffle(kinds)
    step = max(7.0, w * rng.uniform(0.06, 0.085) * look[1])
    _pattern(img, panel, kinds[0], [pal["red"], pal["black"], pal["blue"]], step, rng)
    _pattern(img, sleeve, kinds[1], [pal["yellow"], pal["white"]], step, rng)
    other = robe.copy()
    _pattern(
        img,
        other,
        "glyph" if "glyph" not in kinds[:2] else kinds[2],
        [pal["yellow"], pal["black"]],
        step * 1.3,
        rng,
    )
    if not flat:
        for p in (robe, panel, sleeve):
            _outline(img, p, pal)
        # fold lines
        for k in range(3):
            fx = cx + side * w * (0.28 + 0.06 * k)
            lines(img, [np.array([[fx, h * 0.7], [fx + side * 4, h]])], pal["black"], 1)
    # hand holding the attribute
    hand = (cx + side * w * (0.3 if rank == "K" else 0.22), h * 0.8)
    if rank == "J":
        hand = (cx - side * w * 0.36, h * 0.74)
    ellipse(img, hand, (w * 0.05, h * 0.06), pal["skin"])
    if not flat:
        ellipse(img, hand, (w * 0.05, h * 0.06), pal["black"], 1)
    if rank == "Q":  # a flower
        fx, fy = hand[0], hand[1] - h * 0.2
        lines(img, [np.array([[hand[0], hand[1]], [fx, fy]])], pal["green"], 2)
        for k in range(6):
            a = k * np.pi / 3
            circle(img, (fx + 5 * np.cos(a), fy + 5 * np.sin(a)), 3.2, pal["red"])
        circle(img, (fx, fy), 2.6, pal["yellow"])
    # collar
    n = 7
    xs = np.linspace(cx - w * 0.24, cx + w * 0.24, 2 * n + 1)
    ys = np.where(np.arange(2 * n + 1) % 2 == 0, h * 0.6, h * 0.66)
    collar = np.concatenate(
        [[[cx - w * 0.22, h * 0.5], [cx + w * 0.22, h * 0.5]], np.stack([xs, ys], 1)[::-1]]
    )
    fill(img, [collar], pal["white"] if rng.random() < 0.6 else pal["yellow"])
    if not flat:
        _outline(img, collar, pal)
    for k in range(1, 2 * n, 2):
        circle(img, (xs[k], h * 0.58), 1.6, pal["red"])
    # hair and beard
    hair_c = pal["hair"] if rng.random() < 0.7 else pal["black"]
    ellipse(img, (cx, hy + h * 0.04), (hr[0] * 1.45, hr[1] * 1.15), hair_c)
    for k in range(4):  # curls, like 6s and 9s
        for s in (-1, 1):
            ccx = cx + s * hr[0] * 1.25
            ccy = hy - h * 0.02 + k * h * 0.055
            ellipse(img, (ccx, ccy), (3.2, 3.6), pal["black"], 1, 0, 90 if s > 0 else -90, 330)
    neck = np.array(
        [
            [cx - hr[0] * 0.4, hy],
            [cx + hr[0] * 0.4, hy],
            [cx + hr[0] * 0.4, h * 0.53],
            [cx - hr[0] * 0.4, h * 0.53],
        ]
    )
    fill(img, [neck], pal["skin"])
    ellipse(img, (cx, hy), hr, pal["skin"])
    if not flat:
        ellipse(img, (cx, hy), hr, pal["black"], 1)
    if rank == "K":
        beard = np.array(
            [
                [cx - hr[0] * 0.9, hy + hr[1] * 0.2],
                [cx + hr[0] * 0.9, hy + hr[1] * 0.2],
                [cx + hr[0] * 0.5, hy + hr[1] * 1.5],
                [cx, hy + hr[1] * 1.9],
                [cx - hr[0] * 0.5, hy + hr[1] * 1.5],
            ]
        )
        fill(img, [beard], hair_c)
        for k in range(-2, 3):
            lines(
                img,
                [np.array([[cx + k * 3, hy + hr[1] * 0.7], [cx + k * 4, hy + hr[1] * 1.6]])],
                pal["black"],
                1,
            )
        lines(
            img,
            [
                np.array(
                    [
                        [cx - 8, hy + hr[1] * 0.45],
                        [cx, hy + hr[1] * 0.3],
                        [cx + 8, hy + hr[1] * 0.45],
                    ]
                )
            ],
            pal["black"],
            1.5,
        )
    # face
    ey = hy - hr[1] * 0.15
    for s in (-1, 1):
        ellipse(img, (cx + s * hr[0] * 0.38, ey), (2.2, 1.3), pal["black"])
        lines(
            img,
            [np.array([[cx + s * hr[0] * 0.2, ey - 4], [cx + s * hr[0] * 0.6, ey - 4.5]])],
            pal["black"],
            1,
        )
    lines(
        img,
        [np.array([[cx, ey + 1], [cx - 2, ey + hr[1] * 0.45], [cx + 1, ey + hr[1] * 0.5]])],
        pal["black"],
        1,
    )
    if rank != "K":
        ellipse(img, (cx, hy + hr[1] * 0.5), (3, 1.5), pal["red"])
    # headwear
    top = hy - hr[1] * 0.85
    if rank == "K":
        base = np.array(
            [
                [cx - hr[0] * 1.1, top + 4],
                [cx + hr[0] * 1.1, top + 4],
                [cx + hr[0] * 1.1, top - 3],
                [cx - hr[0] * 1.1, top - 3],
            ]
        )
        pts = [[cx - hr[0] * 1.1, top - 3]]
        for k in range(5):
            px = cx - hr[0] * 1.1 + (k + 0.5) * hr[0] * 2.2 / 5
            pts += [[px, top - h * 0.2], [px + hr[0] * 0.22, top - 6]]
        pts += [[cx + hr[0] * 1.1, top - 3]]
        crown = np.array(pts)
        fill(img, [crown, base], pal["yellow"])
        if not flat:
            _outline(img, crown, pal)
            _outline(img, base, pal)
        for k in range(3):
            circle(
                img, (cx + (k - 1) * hr[0] * 0.7, top + 0.5), 2.2, (pal["red"], pal["blue"])[k % 2]
            )
    elif rank == "Q":
        for k in range(5):
            px = cx + (k - 2) * hr[0] * 0.45
            lines(
                img,
                [np.array([[px, top], [px * 0.9 + cx * 0.1, top - h * 0.13]])],
                pal["yellow"],
                3,
            )
            circle(
                img, (px * 0.9 + cx * 0.1, top - h * 0.14), 3, pal["red"] if k % 2 else pal["blue"]
            )
        band = np.array(
            [
                [cx - hr[0], top + 3],
                [cx + hr[0], top + 3],
                [cx + hr[0] * 0.9, top - 3],
                [cx - hr[0] * 0.9, top - 3],
            ]
        )
        fill(img, [band], pal["yellow"])
        if not flat:
            _outline(img, band, pal)
        veil = np.array(
            [
                [cx - hr[0] * 1.1, top],
                [cx - hr[0] * 1.6, h * 0.56],
                [cx - hr[0] * 1.2, h * 0.56],
                [cx - hr[0] * 0.9, hy],
            ]
        )
        for s in (1, -1):
            v = veil.copy()
            v[:, 0] = cx + s * (v[:, 0] - cx)
            fill(img, [v], robe_b)
            if not flat:
                _outline(img, v, pal)
    else:  # jack's cap with a feather
        cap = np.array(
            [
                [cx - hr[0] * 1.2, top + 5],
                [cx - hr[0] * 0.9, top - h * 0.1],
                [cx + hr[0] * 1.0, top - h * 0.12],
                [cx + hr[0] * 1.4, top + 5],
            ]
        )
        fill(img, [cap], robe_b)
        if not flat:
            _outline(img, cap, pal)
        feather = np.array(
            [
                [cx + hr[0] * 0.6, top - h * 0.08],
                [cx + hr[0] * 1.6, top - h * 0.22],
                [cx + hr[0] * 2.3, top - h * 0.1],
            ]
        )
        lines(img, [feather], pal["red"], 3)
        for k in range(5):
            p = feather[0] + (feather[2] - feather[0]) * k / 5
            lines(img, [np.array([p, p + np.array((3, -6))])], pal["black"], 1)
    # the small suit pip beside the head
    pip = glyphs.suit_mask(suit, suit_design, max(8, round(h * 0.14)))
    px = int(cx - side * w * 0.36 - pip.shape[1] / 2)
    paint(img, pip, ink, px, int(h * 0.1))


def draw_court(img, box, rank, suit, ink, design, rng, deck_rng) -> None:
    """Draw a framed double-ended court figure into ``box`` = (x0, y0, x1, y1) of ``img``.

    ``rng`` varies the card's patterns; ``deck_rng`` (seeded by the style alone) sets what all
    courts of a deck share: head size, pattern scale, background tint.
    """
    look = (deck_rng.uniform(0.85, 1.2), deck_rng.uniform(0.8, 1.3))
    tint_amount = deck_rng.choice([0.0, 0.12, 0.22])
    # Most casino decks print a large suit sign in the frame's corner right beside the index;
    # without it the classifier never learns that a queen's index can stand next to a second,
    # larger diamond (real photos: queens read as tens).
    big_pip = deck_rng.random() < 0.5
    x0, y0, x1, y1 = box
    fw, fh = x1 - x0, y1 - y0
    pal = PALETTES[design.palette]
    flat = design.court == "modern"
    area = img[y0:y1, x0:x1]
    tint = mix(design.stock, pal["yellow"], tint_amount) if not flat else design.stock
    area[:] = tint
    if design.court == "diagonal":
        full = area.copy()
        # the figure stands in the upper-left triangle, its waist on the diagonal
        _figure(
            full[: int(fh * 0.56), : int(fw * 0.9)],
            rank,
            ink,
            suit,
            pal,
            rng,
            design.suits,
            flat,
            look,
        )
        if big_pip:
            _corner_pip(full, fh / 2, suit, design, ink)
        yy, xx = np.mgrid[0:fh, 0:fw]
        upper = (yy / fh + xx / fw) < 1.0
        area[:] = np.where(upper[..., None], full, full[::-1, ::-1])
        lines(img, [np.array([[x0, y1], [x1, y0]], float)], design.black, 1.2)
    else:
        half = area[: fh // 2].copy()
        if flat:  # modern decks: a big letter behind a flat figure
            letter = fonts.text_mask(design_face(design), rank, int(fh * 0.32))
            paint(half, letter, mix(tint, pal["blue"], 0.25), (fw - letter.shape[1]) // 2, 4)
        _figure(half, rank, ink, suit, pal, rng, design.suits, flat, look)
        if big_pip:
            _corner_pip(half, fh / 2, suit, design, ink)
        area[: fh // 2] = half
        area[fh - fh // 2 :] = half[::-1, ::-1]
        lines(img, [np.array([[x0, y0 + fh / 2], [x1, y0 + fh / 2]])], design.black, 1.2)
    rect(img, x0, y0, x1, y1, design.black, 1.4)
    if not flat:
        rect(img, x0 + 2.5, y0 + 2.5, x1 - 2.5, y1 - 2.5, ink, 1)


def _corner_pip(img, half_h: float, suit: str, design, ink) -> None:
    """A suit sign about as tall as the index's rank, in the frame's upper-left corner."""
    pip = glyphs.suit_mask(suit, design.suits, max(8, round(half_h * 0.24)))
    inset = max(4, round(half_h * 0.05))
    paint(img, pip, ink, inset, inset)


def design_face(design) -> str:
    return "Liberation Sans Bold" if design.court == "modern" else "DejaVu Serif Bold"


# --- jokers -------------------------------------------------------------------------------


def draw_joker(img, box, art: str, coloured: bool, design, rng, typeface: str) -> None:
    """Joker art in ``box``: a jester figure, a big star, or the word JOKER with a cap."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pal = dict(PALETTES[design.palette])
    if not coloured:
        for k in ("red", "blue", "green", "hair"):
            pal[k] = design.black
        pal["yellow"] = (200, 200, 200)
        pal["skin"] = design.stock
    cx, cy = x0 + w / 2, y0 + h / 2
    if art == "jester":
        _jester(img, cx, cy, w, h, pal, rng)
    elif art == "star":
        fill(img, [star_poly(cx, cy - h * 0.08, w * 0.42, w * 0.18)], pal["red"])
        lines(img, [star_poly(cx, cy - h * 0.08, w * 0.42, w * 0.18)], pal["black"], 1.5, True)
        fill(img, [star_poly(cx, cy - h * 0.08, w * 0.2, w * 0.085)], pal["yellow"])
        for k in range(10):
            a = k * np.pi / 5 + np.pi / 10 - np.pi / 2
            p = (cx + np.cos(a) * w * 0.47, cy - h * 0.08 + np.sin(a) * w * 0.47)
            fill(img, [star_poly(*p, 5, 2)], pal["blue"])
        word = fonts.text_mask(typeface, "JOKER", max(10, int(w * 0.14)))
        paint(img, word, pal["black"], int(cx - word.shape[1] / 2), int(cy + h * 0.25))
    else:  # "text": the word written diagonally under a jester's cap
        size = max(12, int(min(h * 0.09, w * 0.2)))
        letters = [fonts.text_mask(typeface, ch, size) for ch in "JOKER"]
        step_x = max(m.shape[1] for m in letters) * 0.8
        step_y = size * 1.05
        for k, m in enumerate(letters):
            colour = (pal["red"], pal["black"], pal["blue"])[k % 3]
            x = cx + (k - 2) * step_x - m.shape[1] / 2
            y = cy - h * 0.02 + (k - 2) * step_y
            paint(img, m, colour, round(x), round(y))
        _cap(img, cx - w * 0.12, cy - h * 0.24, w * 0.5, pal)


def _cap(img, cx, cy, w, pal) -> None:
    """A jester's three-pointed cap with bells."""
    base = np.array(
        [
            [cx - w * 0.35, cy],
            [cx + w * 0.35, cy],
            [cx + w * 0.3, cy - w * 0.12],
            [cx - w * 0.3, cy - w * 0.12],
        ]
    )
    tips = [(-0.55, -0.42), (0.55, -0.42), (0.0, -0.62)]
    colours = (pal["red"], pal["blue"], pal["yellow"])
    for (tx, ty), c in zip(tips, colours, strict=True):
        # a floppy horn: a curved cone from the band to the bell
        t = np.linspace(0, 1, 12)[:, None]
        a, b = (
            np.array([cx - w * 0.22 + tx * w * 0.25, cy - w * 0.1]),
            np.array([cx + tx * w, cy + ty * w]),
        )
        a2 = np.array([cx + w * 0.22 + tx * w * 0.25, cy - w * 0.1])
        ctrl = np.array([cx + tx * w * 0.35, cy + ty * w * 1.15 - w * 0.1])
        left = (1 - t) ** 2 * a + 2 * (1 - t) * t * ctrl + t**2 * b
        right = (
            (1 - t) ** 2 * a2 + 2 * (1 - t) * t * (ctrl + np.array((w * 0.12, w * 0.08))) + t**2 * b
        )
        horn = np.concatenate([left, right[::-1]])
        fill(img, [horn], c)
        lines(img, [horn], pal["black"], 1, True)
        circle(img, (cx + tx * w, cy + ty * w), w * 0.06, pal["yellow"])
        circle(img, (cx + tx * w, cy + ty * w), w * 0.06, pal["black"], 1)
    fill(img, [base], pal["black"] if pal["red"] == pal["black"] else pal["blue"])
    lines(img, [base], pal["black"], 1, True)


def _jester(img, cx, cy, w, h, pal, rng) -> None:
    hy = cy - h * 0.12
    # harlequin body
    body = np.array(
        [
            [cx - w * 0.4, cy + h * 0.42],
            [cx - w * 0.22, cy + h * 0.02],
            [cx + w * 0.22, cy + h * 0.02],
            [cx + w * 0.4, cy + h * 0.42],
        ]
    )
    fill(img, [body], pal["red"])
    s = w * 0.09
    for j in range(8):
        for i in range(-5, 6):
            x, y = cx + i * s + (j % 2) * s / 2, cy + h * 0.06 + j * s * 0.8
            if _inside(body, x, y, 1):
                c = (pal["yellow"], pal["black"], pal["blue"])[(i + j) % 3]
                fill(
                    img,
                    [
                        np.array(
                            [
                                [x, y - s * 0.4],
                                [x + s * 0.45, y],
                                [x, y + s * 0.4],
                                [x - s * 0.45, y],
                            ]
                        )
                    ],
                    c,
                )
    lines(img, [body], pal["black"], 1, True)
    # ruff
    n = 9
    a = np.linspace(0, 2 * np.pi, 2 * n, endpoint=False)
    r = np.where(np.arange(2 * n) % 2 == 0, w * 0.3, w * 0.2)
    ruff = np.stack([cx + r * np.cos(a), cy + h * 0.01 + r * 0.35 * np.sin(a)], 1)
    fill(img, [ruff], pal["white"])
    lines(img, [ruff], pal["black"], 1, True)
    # head
    fr = (w * 0.13, h * 0.085)
    ellipse(img, (cx, hy), fr, pal["skin"])
    ellipse(img, (cx, hy), fr, pal["black"], 1)
    for sx in (-1, 1):
        ellipse(img, (cx + sx * fr[0] * 0.4, hy - fr[1] * 0.2), (2, 2.5), pal["black"])
    ellipse(img, (cx, hy + fr[1] * 0.35), (fr[0] * 0.5, fr[1] * 0.3), pal["red"], 1.5, 0, 0, 180)
    _cap(img, cx, hy - fr[1] * 0.75, w * 0.5, pal)
    # marotte: a stick with a small head
    sx = cx + w * 0.38
    lines(img, [np.array([[sx, cy + h * 0.4], [sx + 4, cy - h * 0.25]])], pal["black"], 2)
    circle(img, (sx + 4, cy - h * 0.28), w * 0.05, pal["skin"])
    circle(img, (sx + 4, cy - h * 0.28), w * 0.05, pal["black"], 1)
    fill(img, [star_poly(sx + 4, cy - h * 0.34, w * 0.06, w * 0.025, 3)], pal["red"])

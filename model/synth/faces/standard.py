"""Faces of the standard 52-card deck plus its two jokers."""

from __future__ import annotations

import functools

import numpy as np

from ..types import FACE_HEIGHT, CardStyle, IndexMark
from . import court, fonts, glyphs
from .draw import Color, circle, ellipse, lines, paint, rng_for
from .index import Ink, compose, place, stack
from .styles import Design

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("H", "D", "C", "S")

# pip centres as (column, row) fractions of the pip area; rows below 0.5 print upside down
_R3 = (0.0, 1 / 3, 2 / 3, 1.0)
PIP_LAYOUT: dict[str, tuple[tuple[float, float], ...]] = {
    "2": ((0.5, 0), (0.5, 1)),
    "3": ((0.5, 0), (0.5, 0.5), (0.5, 1)),
    "4": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "5": ((0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)),
    "6": ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    "7": ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    "8": ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    "9": (*((c, r) for c in (0, 1) for r in _R3), (0.5, 0.5)),
    "10": (*((c, r) for c in (0, 1) for r in _R3), (0.5, 1 / 6), (0.5, 5 / 6)),
}


def split_name(name: str) -> tuple[str, str]:
    return name[:-1], name[-1]


def ink_of(design: Design, suit: str) -> Color:
    return design.red if suit in "HD" else design.black


@functools.lru_cache(maxsize=512)
def rank_mask(style: CardStyle, design: Design, rank: str) -> np.ndarray:
    track = design.ten_tracking if rank == "10" else None
    m = fonts.text_mask(style.typeface, rank, design.rank_cap, design.x_scale, track, design.weight)
    if rank == "10":  # index typefaces squeeze the 10 to keep the column narrow
        eight = fonts.text_mask(style.typeface, "8", design.rank_cap, design.x_scale)
        limit = eight.shape[1] * (1.55 if style.jumbo else 1.75)
        if m.shape[1] > limit:
            from .draw import scaled

            m = scaled(m, limit / m.shape[1])
    return m


@functools.lru_cache(maxsize=1024)
def standard_ink(style: CardStyle, design: Design, name: str) -> Ink:
    """The corner index of a standard card or joker."""
    if name in ("JK", "JK2"):
        return joker_ink(style, design, name)
    rank, suit = split_name(name)
    r = rank_mask(style, design, rank)
    s = glyphs.suit_mask(suit, design.suits, design.suit_h)
    c = ink_of(design, suit)
    if design.layout == "beside":
        y = (r.shape[0] - s.shape[0]) // 2
        return compose([(r, c, 0, 0), (s, c, r.shape[1] + design.gap, y)])
    align = "left" if design.layout == "stack-left" else "center"
    return compose([(m, c, x, y) for m, x, y in stack(r, s, design.gap, align)])


def joker_ink(style: CardStyle, design: Design, name: str) -> Ink:
    k = 0 if name == "JK" else 1
    kind = design.joker_index[k]
    c = design.red if k == 0 else design.black
    cap = max(9, round(design.rank_cap * (0.3 if style.jumbo else 0.42)))
    parts: list[tuple[np.ndarray, Color, int, int]] = []
    y = 0
    if kind.startswith("vertical"):
        letters = [
            fonts.text_mask(style.typeface, ch, cap, 1.0, None, design.weight) for ch in "JOKER"
        ]
        w = max(m.shape[1] for m in letters)
        for m in letters:
            parts.append((m, c, (w - m.shape[1]) // 2, y))
            y += m.shape[0] + max(2, cap // 4)
    if kind in ("star", "vertical-star"):
        size = round(design.rank_cap * (1.0 if kind == "star" else 0.6))
        star = np.zeros((size + 4, size + 4), np.uint8)
        from .draw import fill, star_poly

        fill(star, [star_poly(size / 2 + 2, size / 2 + 2.5, size / 2, size / 4.6)], 255)
        w = max([p[0].shape[1] for p in parts] or [star.shape[1]])
        parts.append((star, c, (w - star.shape[1]) // 2, y))
    return compose(parts)


@functools.lru_cache(maxsize=64)
def index_extent(style: CardStyle, design: Design) -> tuple[int, int]:
    """The widest and tallest index of the deck's court cards (frames keep clear of it)."""
    inks = [standard_ink(style, design, r + "S") for r in ("J", "Q", "K", "10")]
    return max(i.shape[1] for i in inks), max(i.shape[0] for i in inks)


def _pip(img, suit, design, height, x, y, flip, ink) -> None:
    m = glyphs.suit_mask(suit, design.suits, int(height), flip)
    paint(img, m, ink, round(x - m.shape[1] / 2), round(y - m.shape[0] / 2))


def draw_pips(img, style: CardStyle, design: Design, rank: str, suit: str) -> None:
    W = style.width
    H = FACE_HEIGHT
    ink = ink_of(design, suit)
    ex, _ = index_extent(style, design)
    scale = W / 250
    if design.pips == "big-center":
        _pip(img, suit, design, H * 0.3, W / 2, H / 2, False, ink)
        return
    ph = design.pip_h * scale
    pw = ph * 0.9
    left = max(W * (0.3 if design.pips == "classic" else 0.34), design.margin[0] + ex + pw / 2 + 4)
    top = H * (0.2 if design.pips == "classic" else 0.23)
    for fx, fy in PIP_LAYOUT[rank]:
        x = left + fx * (W - 2 * left)
        y = top + fy * (H - 2 * top)
        _pip(img, suit, design, ph, x, y, fy > 0.5, ink)


def draw_ace(img, style: CardStyle, design: Design, suit: str, rng) -> None:
    W, H = style.width, FACE_HEIGHT
    ink = ink_of(design, suit)
    big = design.pips == "big-center"
    if suit == "S" and design.ace == "ornate":
        r = W * 0.3
        circle(img, (W / 2, H / 2), r, ink, 1.5)
        for k in range(16):
            a = k * np.pi / 8
            p = (W / 2 + np.cos(a) * r * 1.08, H / 2 + np.sin(a) * r * 1.08)
            ellipse(img, p, (3, 6), ink, 1, np.rad2deg(a))
        _pip(img, suit, design, H * 0.3, W / 2, H / 2, False, ink)
        maker = fonts.line_mask(design.text_face, "HANDFOOT PLAYING CARD CO.", 7)
        paint(img, maker, ink, (W - maker.shape[1]) // 2, int(H * 0.78))
    else:
        size = H * (0.3 if big else 0.2 if suit == "S" else 0.15)
        _pip(img, suit, design, size, W / 2, H / 2, False, ink)


def standard_face(
    style: CardStyle, design: Design, name: str, with_index: bool
) -> tuple[np.ndarray, tuple[IndexMark, ...]]:
    """The RGB face (without grain and alpha) and its index marks."""
    from .draw import stock

    W, H = style.width, FACE_HEIGHT
    img = stock(W, H, design.stock, design.mottle, style.name).copy()
    draw_border(img, design)
    rng = rng_for(style.name, name)
    if name in ("JK", "JK2"):
        k = 0 if name == "JK" else 1
        x0 = design.margin[0] + standard_ink(style, design, name).shape[1] + 6
        box = (x0, int(H * 0.12), W - x0, int(H * 0.88))
        court.draw_joker(img, box, design.jokers[k], k == 0, design, rng, style.typeface)
    else:
        rank, suit = split_name(name)
        if rank in ("J", "Q", "K"):
            court.draw_court(
                img,
                court_box(style, design),
                rank,
                suit,
                ink_of(design, suit),
                design,
                rng,
                rng_for("courts", style.name),
            )
        elif rank == "A":
            draw_ace(img, style, design, suit, rng)
        else:
            draw_pips(img, style, design, rank, suit)
    marks = place(img, standard_ink(style, design, name), design.margin, with_index)
    return img, marks


def court_box(style: CardStyle, design: Design) -> tuple[int, int, int, int]:
    """The court frame: beside the index column, or below the index row when the index is
    wide (whichever leaves the larger frame)."""
    W, H = style.width, FACE_HEIGHT
    ex, ey = index_extent(style, design)
    mx, my = design.margin
    edge = max(design.border_inset + 6, mx + 2)
    beside = (mx + ex + 5, max(my + 2, design.border_inset + 6))
    below = (edge, my + ey + 5)
    x0, y0 = beside if W - 2 * beside[0] >= 0.36 * W else below
    return x0, y0, W - x0, H - y0


def draw_border(img: np.ndarray, design: Design) -> None:
    from .draw import rounded_rect_poly

    if design.border == "none":
        return
    H, W = img.shape[:2]
    i = design.border_inset
    r = max(2, design.radius - i)
    lines(img, [rounded_rect_poly(i, i, W - 1 - i, H - 1 - i, r)], design.border_color, 1, True)
    if design.border == "double":
        j = i + 3
        lines(
            img,
            [rounded_rect_poly(j, j, W - 1 - j, H - 1 - j, max(2, r - 3))],
            design.border_color,
            1,
            True,
        )

"""Vector shapes: the four suit symbols in several designs, and three stroke-built typefaces.

Suit shapes are polygons in a unit box (height 1, x centred on 0, y down). The typefaces are
centre lines of strokes per character in a box of cap height 1: "Vector Sans" strokes them with
a round pen, "Vector Serif" sweeps a broad nib along them (thick and thin strokes, like the
indices of classic casino decks) and adds bracket-less slab serifs at vertical stroke ends, and
"Vector Bridge" is the serif with a finer nib and a bridge deck's narrow Queen.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .draw import arc_pts, fill, lines, tight

SUITS = ("H", "D", "C", "S")
SUIT_DESIGNS = ("classic", "rounded", "narrow", "angular", "deco")

# per design: heart exponent, x scale, curve samples, diamond width and side bow (+ = concave),
# club lobe radius and spread, stem flare
_SUIT_PARAMS = {
    "classic": dict(p=3.0, xs=1.0, n=72, dw=0.74, bow=0.05, cr=0.27, cs=1.0, flare=0.19),
    "rounded": dict(p=2.2, xs=1.0, n=72, dw=0.8, bow=-0.07, cr=0.3, cs=0.95, flare=0.16),
    "narrow": dict(p=3.0, xs=0.8, n=72, dw=0.6, bow=0.03, cr=0.25, cs=0.95, flare=0.14),
    "angular": dict(p=2.6, xs=1.0, n=10, dw=0.7, bow=0.0, cr=0.28, cs=1.0, flare=0.2),
    "deco": dict(p=4.5, xs=1.12, n=72, dw=0.82, bow=0.16, cr=0.22, cs=1.25, flare=0.26),
}


def _heart(p: float, n: int) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    s = np.sin(t)
    x = np.sign(s) * np.abs(s) ** p
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) / 16
    return np.stack([x, y], 1)


def _circle(cx: float, cy: float, r: float, n: int) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False) + np.pi / 2
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)


def _stem(top: float, flare: float, n: int) -> np.ndarray:
    # a stem with concave sides widening to a flat foot at y = 1
    t = np.linspace(0, 1, max(3, n // 6))
    xs = 0.02 + flare * t**2.2
    ys = top + (1 - top) * t
    return np.concatenate([np.stack([xs, ys], 1), np.stack([-xs, ys], 1)[::-1]])


def _normalise(polys: list[np.ndarray], xs: float) -> list[np.ndarray]:
    allp = np.concatenate(polys)
    y0, y1 = allp[:, 1].min(), allp[:, 1].max()
    cx = (allp[:, 0].min() + allp[:, 0].max()) / 2
    s = 1 / (y1 - y0)
    return [np.stack([(q[:, 0] - cx) * s * xs, (q[:, 1] - y0) * s], 1) for q in polys]


@functools.lru_cache(maxsize=64)
def suit_polys(suit: str, design: str) -> tuple[np.ndarray, ...]:
    """The polygons of a suit symbol, height 1, centred on x = 0."""
    k = _SUIT_PARAMS[design]
    n = k["n"]
    if suit == "H":
        polys = [_heart(k["p"], n)]
    elif suit == "S":
        h = _heart(k["p"], n)
        h[:, 1] = -h[:, 1]
        h = _normalise([h], 1.0)[0] * 0.8
        polys = [h, _stem(0.5, k["flare"] * 1.1, n)]
    elif suit == "D":
        w, b = k["dw"] / 2, k["bow"]
        corners = np.array([[0, 0], [w, 0.5], [0, 1], [-w, 0.5], [0, 0]])
        pts = []
        t = np.linspace(0, 1, 12, endpoint=False)[:, None]
        for a, c in itertools.pairwise(corners):
            mid = (a + c) / 2
            ctrl = mid + (np.array([0, 0.5]) - mid) * b * 4
            pts.append((1 - t) ** 2 * a + 2 * (1 - t) * t * ctrl + t**2 * c)
        polys = [np.concatenate(pts)]
    elif suit == "C":
        r, s = k["cr"], k["cs"]
        cn = 6 if n < 20 else 40
        top = (0.0, r)
        side_y = r + 1.3 * r
        dx = 1.08 * r * s
        polys = [
            _circle(*top, r, cn),
            _circle(-dx, side_y, r, cn),
            _circle(dx, side_y, r, cn),
            np.array([[0, r], [-dx * 0.8, side_y], [dx * 0.8, side_y]]),
            _stem(side_y, k["flare"], n) * np.array([1, 1]),
        ]
        stem = polys[-1]
        stem[:, 1] = side_y + (stem[:, 1] - side_y) * (side_y + 2.1 * r - side_y) / (1 - side_y)
    else:
        raise ValueError(f"{suit!r} is not a suit (H, D, C or S)")
    return tuple(_normalise(polys, k["xs"]))


@functools.lru_cache(maxsize=512)
def suit_mask(suit: str, design: str, height: int, flip: bool = False) -> np.ndarray:
    """A tight anti-aliased coverage mask of a suit symbol ``height`` pixels tall."""
    polys = suit_polys(suit, design)
    pad = 2
    w = int(np.ceil(max(abs(p[:, 0]).max() for p in polys) * height)) * 2 + 2 * pad + 1
    m = np.zeros((height + 2 * pad + 1, w), np.uint8)
    off = np.array([w / 2, pad])
    fill(m, [q * height + off for q in polys], 255)
    m = tight(m)
    if flip:
        m = m[::-1, ::-1]
    m = np.ascontiguousarray(m)
    m.setflags(write=False)
    return m


# --- stroke typefaces ---------------------------------------------------------------------


def _L(*pts: tuple[float, float]) -> np.ndarray:
    return np.array(pts, np.float64)


def _A(cx, cy, rx, ry, a0, a1, n=20) -> np.ndarray:
    return arc_pts(cx, cy, rx, ry, a0, a1, n)


def _join(*parts: np.ndarray) -> np.ndarray:
    return np.concatenate(parts)


# advance width, strokes (cap height 1, y down)
_GLYPHS: dict[str, tuple[float, list[np.ndarray]]] = {
    "A": (0.8, [_L((0, 1), (0.4, 0), (0.8, 1)), _L((0.15, 0.66), (0.65, 0.66))]),
    "0": (0.6, [_A(0.3, 0.5, 0.3, 0.5, 0, 360, 40)]),
    "1": (0.45, [_L((0.05, 0.2), (0.3, 0.0), (0.3, 1.0))]),
    "2": (0.62, [_join(_A(0.3, 0.27, 0.28, 0.26, 195, 395), _L((0.0, 1.0), (0.62, 1.0)))]),
    "3": (
        0.6,
        [_join(_A(0.29, 0.25, 0.26, 0.24, 200, 450), _A(0.29, 0.73, 0.31, 0.27, 270, 520))],
    ),
    "4": (0.7, [_L((0.52, 1), (0.52, 0), (0.0, 0.7), (0.7, 0.7))]),
    "5": (
        0.6,
        [_join(_L((0.56, 0.0), (0.07, 0.0), (0.03, 0.47)), _A(0.29, 0.69, 0.31, 0.31, 235, 500))],
    ),
    "6": (0.62, [_join(_A(0.62, 0.7, 0.6, 0.7, 250, 180), _A(0.31, 0.7, 0.31, 0.3, 180, 540))]),
    "7": (0.62, [_L((0, 0), (0.62, 0), (0.2, 1))]),
    "8": (
        0.62,
        [_A(0.31, 0.25, 0.25, 0.25, 0, 360, 32), _A(0.31, 0.73, 0.31, 0.27, 0, 360, 32)],
    ),
    "J": (0.55, [_join(_L((0.52, 0), (0.52, 0.72)), _A(0.28, 0.72, 0.24, 0.28, 0, 160))]),
    "Q": (0.82, [_A(0.41, 0.5, 0.41, 0.5, 0, 360, 40), _L((0.48, 0.72), (0.86, 1.06))]),
    "K": (0.7, [_L((0, 0), (0, 1)), _L((0.66, 0), (0.0, 0.62)), _L((0.2, 0.44), (0.7, 1))]),
    "L": (0.55, [_L((0, 0), (0, 1), (0.55, 1))]),
    "O": (0.8, [_A(0.4, 0.5, 0.4, 0.5, 0, 360, 40)]),
    "R": (
        0.65,
        [
            _join(_L((0, 1), (0, 0), (0.33, 0)), _A(0.33, 0.25, 0.27, 0.25, 270, 450)),
            _L((0.33, 0.5), (0, 0.5)),
            _L((0.3, 0.5), (0.65, 1)),
        ],
    ),
    "D": (
        0.7,
        [
            _join(
                _L((0, 1), (0, 0), (0.3, 0)),
                _A(0.3, 0.5, 0.38, 0.5, 270, 450),
                _L((0.3, 1), (0, 1)),
            )
        ],
    ),
    "Y": (0.72, [_L((0, 0), (0.36, 0.5), (0.72, 0)), _L((0.36, 0.5), (0.36, 1))]),
    "V": (0.74, [_L((0, 0), (0.37, 1), (0.74, 0))]),
    "I": (0.1, [_L((0.05, 0), (0.05, 1))]),
    "N": (0.68, [_L((0, 1), (0, 0), (0.68, 1), (0.68, 0))]),
    "E": (0.56, [_L((0.56, 0), (0, 0), (0, 1), (0.56, 1)), _L((0, 0.5), (0.45, 0.5))]),
    "S": (
        0.6,
        [_join(_A(0.3, 0.26, 0.28, 0.26, 340, 90), _A(0.3, 0.74, 0.3, 0.26, 270, 520))],
    ),
    "T": (0.66, [_L((0, 0), (0.66, 0)), _L((0.33, 0), (0.33, 1))]),
    "H": (0.66, [_L((0, 0), (0, 1)), _L((0.66, 0), (0.66, 1)), _L((0, 0.5), (0.66, 0.5))]),
    # from the lower right, under, up the left side and over to the upper right
    "C": (0.62, [_A(0.4, 0.5, 0.4, 0.5, 45, 315, 30)]),
    "P": (
        0.6,
        [
            _join(
                _L((0, 1), (0, 0), (0.3, 0)),
                _A(0.3, 0.27, 0.28, 0.27, 270, 450),
                _L((0.3, 0.54), (0, 0.54)),
            )
        ],
    ),
    ".": (0.15, [_L((0.07, 0.95), (0.08, 0.95))]),
    "-": (0.4, [_L((0.02, 0.55), (0.38, 0.55))]),
}
# 9 is a 6 turned half a turn, as in most index typefaces
_GLYPHS["9"] = (_GLYPHS["6"][0], [np.array([0.62, 1.0]) - s for s in _GLYPHS["6"][1]])

VECTOR_CHARS = frozenset(_GLYPHS)
VECTOR_TYPEFACES = ("Vector Sans", "Vector Serif", "Vector Bridge")

# "Vector Bridge": the serif's nib cut finer, with the Queen of bridge-size decks (the commonest
# in North America): a bowl barely half as wide as it is tall, its tail drawn across the bowl's
# foot and on below it. The real photos' Queens look so, and no font's Q does.
_BRIDGE_GLYPHS = {
    **_GLYPHS,
    "Q": (
        0.56,
        [
            _A(0.28, 0.5, 0.28, 0.5, 0, 360, 40),
            _L((0.2, 0.78), (0.38, 0.98), (0.5, 1.12), (0.66, 1.14)),
        ],
    ),
}
# per typeface: its glyphs, and its broad nib's width as a share of the serif's (0: a round pen)
_FACES = {
    "Vector Sans": (_GLYPHS, 0.0),
    "Vector Serif": (_GLYPHS, 1.0),
    "Vector Bridge": (_BRIDGE_GLYPHS, 0.65),
}


def has_glyph(ch: str) -> bool:
    return ch.upper() in _GLYPHS or ch == " "


def _serifs(stroke: np.ndarray) -> list[np.ndarray]:
    """Slab serifs at the free ends of near-vertical strokes that end on the cap or base line."""
    out = []
    for end, nxt in ((stroke[0], stroke[1]), (stroke[-1], stroke[-2])):
        d = end - nxt
        if abs(d[1]) > 1.6 * abs(d[0]) and (end[1] < 0.06 or end[1] > 0.94):
            out.append(_L((end[0] - 0.13, end[1]), (end[0] + 0.13, end[1])))
    return out


def _nib_polys(stroke: np.ndarray, nib: np.ndarray) -> list[np.ndarray]:
    return [np.array([a - nib, b - nib, b + nib, a + nib]) for a, b in itertools.pairwise(stroke)]


@functools.lru_cache(maxsize=1024)
def glyph_mask(
    text: str, typeface: str, cap: int, weight: float = 1.0, tracking: float = 0.12
) -> np.ndarray:
    """A tight coverage mask of ``text`` in one of the vector typefaces, ``cap`` px tall.

    Characters without a glyph become a plain bar, so nothing ever fails to render.
    """
    table, cut = _FACES[typeface]
    serif = cut > 0
    pen = (0.07 * cut if serif else 0.15) * weight * cap
    slant = np.array([np.cos(np.deg2rad(-25)), np.sin(np.deg2rad(-25))])
    nib = 0.21 * cut * weight * cap * slant / 2
    pad = int(pen + cap * 0.3) + 2
    tracking += (0.2 * cut if serif else 0.15) * weight  # the ink's own width
    adv = sum(table.get(c.upper(), (0.5, []))[0] + tracking for c in text)
    m = np.zeros((int(cap * 1.2) + 2 * pad, int(adv * cap) + 2 * pad), np.uint8)
    x = 0.0
    for c in text:
        w, strokes = table.get(
            c.upper(), (0.5, [_L((0.05, 0.5), (0.45, 0.5))]) if c != " " else (0.35, [])
        )
        for s in strokes:
            pts = (s + np.array([x, 0])) * cap + pad
            if serif:
                fill(m, _nib_polys(pts, nib), 255)
                lines(m, [pts], 255, max(1.0, pen))
                for sf in _serifs(s):
                    lines(m, [(sf + np.array([x, 0])) * cap + pad], 255, max(1.0, pen * 1.1))
            else:
                lines(m, [pts], 255, pen)
        x += w + tracking
    m = tight(m)
    m.setflags(write=False)
    return m


def stroke_points(ch: str) -> list[np.ndarray]:
    """The centre lines of a vector glyph (cap height 1), for ornaments that look like letters."""
    return [s.copy() for s in _GLYPHS.get(ch.upper(), (0, []))[1]]

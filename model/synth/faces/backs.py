"""Card backs: repeating patterns in a white margin, with frames and a central logo.

``variant`` picks the design (from the style's list) and the ink: even variants red, odd ones
blue, the classic pair; from the third round of designs on, green, black or purple.
"""

from __future__ import annotations

import numpy as np

from ..types import FACE_HEIGHT, CardStyle
from . import fonts
from .draw import (
    Color,
    circle,
    ellipse,
    fill,
    lines,
    mix,
    paint,
    rect,
    rounded_rect_poly,
    star_poly,
    stock,
)
from .styles import Design

BACK_INKS: tuple[Color, ...] = ((176, 28, 38), (28, 52, 138))
EXTRA_INKS: tuple[Color, ...] = ((24, 110, 70), (30, 30, 34), (96, 40, 120))
DESIGNS = ("lattice", "rings", "dots", "checker", "logo")


def back_look(design: Design, variant: int) -> tuple[str, Color]:
    n = len(design.backs)
    kind = design.backs[(variant // 2) % n]
    rounds = variant // (2 * n)
    ink = BACK_INKS[variant % 2] if rounds == 0 else EXTRA_INKS[(variant + rounds) % 3]
    return kind, ink


def draw_back(style: CardStyle, design: Design, variant: int) -> np.ndarray:
    W, H = style.width, FACE_HEIGHT
    img = stock(W, H, design.stock, design.mottle, style.name).copy()
    kind, ink = back_look(design, variant)
    light = mix(ink, (255, 255, 255), 0.55)
    m = 9 if kind != "logo" else 0
    x0, y0, x1, y1 = m, m, W - 1 - m, H - 1 - m
    field = rounded_rect_poly(x0, y0, x1, y1, max(2, design.radius - m))
    fill(img, [field], ink)
    if kind == "lattice":
        region = img[y0 + 5 : y1 - 4, x0 + 5 : x1 - 4]
        h, w = region.shape[:2]
        for d in range(-h, w + h, 7):
            lines(
                region, [np.array([[d, 0], [d + h, h]]), np.array([[d, h], [d + h, 0]])], light, 1
            )
        lines(
            img, [rounded_rect_poly(x0 + 4, y0 + 4, x1 - 4, y1 - 4, 4)], (250, 250, 250), 1.5, True
        )
        _medallion(img, W / 2, H / 2, W * 0.2, ink, light)
    elif kind == "rings":
        for k, inset in enumerate(range(6, int(W * 0.45), 7)):
            c = light if k % 2 == 0 else ink
            poly = rounded_rect_poly(x0 + inset, y0 + inset, x1 - inset, y1 - inset, 8)
            lines(img, [poly], c, 2.5, True)
        fill(img, [star_poly(W / 2, H / 2, W * 0.16, W * 0.07, 8)], (250, 248, 240))
    elif kind == "dots":
        for j, y in enumerate(range(y0 + 8, y1 - 4, 12)):
            for x in range(x0 + 8 + (j % 2) * 6, x1 - 4, 12):
                circle(img, (x, y), 2.6, light)
        ellipse(img, (W / 2, H / 2), (W * 0.3, H * 0.14), (250, 248, 240))
        ellipse(img, (W / 2, H / 2), (W * 0.27, H * 0.12), ink, 2)
        _logo(img, design, "HF", W / 2, H / 2, int(H * 0.07), ink)
    elif kind == "checker":
        s = 10
        for j, y in enumerate(range(y0 + 4, y1 - 4, s // 2)):
            for x in range(x0 + 4 + (j % 2) * s // 2, x1 - 4, s):
                fill(
                    img,
                    [np.array([[x, y - s / 2], [x + s / 2, y], [x, y + s / 2], [x - s / 2, y]])],
                    light if (j // 2) % 2 else mix(ink, (0, 0, 0), 0.25),
                )
        lines(img, [rounded_rect_poly(x0 + 3, y0 + 3, x1 - 3, y1 - 3, 4)], (250, 250, 250), 2, True)
    else:  # "logo"
        lines(img, [rounded_rect_poly(10, 10, W - 11, H - 11, 8)], light, 2, True)
        word = "HAND 'N FOOT" if style.deck == "special" else "ROYAL"
        _logo(img, design, word, W / 2, H * 0.5, int(H * 0.045), (250, 248, 240))
        for s in (-1, 1):
            fill(img, [star_poly(W / 2, H / 2 + s * H * 0.16, W * 0.12, W * 0.05)], light)
        for x, y in ((24, 24), (W - 25, 24), (24, H - 25), (W - 25, H - 25)):
            circle(img, (x, y), 5, light)
    return img


def _medallion(img, cx, cy, r, ink, light) -> None:
    circle(img, (cx, cy), r, (250, 248, 240))
    circle(img, (cx, cy), r * 0.88, ink, 2)
    fill(
        img,
        [star_poly(cx, cy, r * 0.7, r * 0.3, 4, -90), star_poly(cx, cy, r * 0.5, r * 0.2, 4, -45)],
        ink,
    )
    circle(img, (cx, cy), r * 0.15, light)


def _logo(img, design: Design, text: str, cx, cy, cap, colour) -> None:
    m = fonts.text_mask(
        design.text_face + " Bold" if "Bold" not in design.text_face else design.text_face,
        text,
        cap,
    )
    paint(img, m, colour, round(cx - m.shape[1] / 2), round(cy - m.shape[0] / 2))
    rect(
        img,
        cx - m.shape[1] / 2,
        cy + m.shape[0] / 2 + 3,
        cx + m.shape[1] / 2,
        cy + m.shape[0] / 2 + 4,
        colour,
    )

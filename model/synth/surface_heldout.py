"""Held-out table tops, each a kind of surface no training surface has: a busy floral oilcloth,
lace over wood, glass over wood with reflections of the room, and terrazzo."""

from __future__ import annotations

import cv2
import numpy as np

from model.synth.surface_noise import (
    Size,
    canvas_size,
    fbm,
    fine_noise,
    modulate,
    place,
    ramp,
    sheen,
    smooth_noise,
    tile_to,
)
from model.synth.surface_textile import finish_cloth
from model.synth.surface_wood import SPECIES, wood_canvas

Rgb = tuple[int, int, int]

OILCLOTH: list[tuple[Rgb, list[Rgb]]] = [  # ground, flower inks
    ((200, 30, 40), [(250, 240, 230), (250, 200, 40), (40, 60, 150), (250, 140, 170)]),
    ((24, 24, 30), [(230, 60, 80), (250, 210, 60), (240, 240, 240), (90, 160, 220)]),
    ((40, 80, 170), [(250, 250, 250), (240, 90, 60), (250, 210, 60), (250, 150, 190)]),
    ((250, 214, 60), [(220, 40, 50), (30, 90, 170), (250, 250, 250), (240, 120, 40)]),
    ((244, 240, 230), [(220, 40, 70), (240, 120, 30), (60, 70, 170), (160, 60, 160)]),
]
LEAF: list[Rgb] = [(40, 130, 60), (70, 160, 70), (20, 90, 60)]


def _flower(tile: np.ndarray, c: tuple[int, int], r: float, inks: list[Rgb], rng) -> None:
    """One printed flower: leaves, two rings of outlined petals and a dotted heart."""
    outline = (20, 20, 20)
    for _ in range(int(rng.integers(2, 5))):
        a = rng.uniform(0, 360)
        p = (
            int(c[0] + 1.0 * r * np.cos(np.radians(a))),
            int(c[1] + 1.0 * r * np.sin(np.radians(a))),
        )
        axes = (int(0.7 * r) + 1, int(0.28 * r) + 1)
        cv2.ellipse(tile, p, axes, a, 0, 360, LEAF[int(rng.integers(3))], -1, cv2.LINE_AA)
        cv2.ellipse(tile, p, axes, a, 0, 360, outline, 1, cv2.LINE_AA)
    for ring, k in ((1.0, int(rng.integers(5, 9))), (0.6, int(rng.integers(4, 7)))):
        ink = inks[int(rng.integers(len(inks)))]
        for j in range(k):
            a = 360 * j / k + rng.uniform(0, 30)
            p = (
                int(c[0] + 0.5 * ring * r * np.cos(np.radians(a))),
                int(c[1] + 0.5 * ring * r * np.sin(np.radians(a))),
            )
            axes = (int(0.45 * ring * r) + 1, int(0.3 * ring * r) + 1)
            cv2.ellipse(tile, p, axes, a, 0, 360, ink, -1, cv2.LINE_AA)
            cv2.ellipse(tile, p, axes, a, 0, 360, outline, 1, cv2.LINE_AA)
    cv2.circle(tile, c, int(0.18 * r) + 1, inks[int(rng.integers(len(inks)))], -1, cv2.LINE_AA)
    for _ in range(5):
        q = (int(c[0] + rng.normal(0, 0.08 * r)), int(c[1] + rng.normal(0, 0.08 * r)))
        cv2.circle(tile, q, 1, outline, -1, cv2.LINE_AA)


def render_oilcloth(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """Busy, glossy floral oilcloth: big outlined flowers of many colours packed edge to edge."""
    angle = float(rng.uniform(-10, 10))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    ground, inks = OILCLOTH[int(rng.integers(len(OILCLOTH)))]
    t = int(rng.uniform(160, 260) * ppm * scale)
    tile = np.empty((t, t, 3), np.uint8)
    tile[:] = ground
    for _ in range(int(rng.integers(60, 120))):  # filler dots between flowers
        cv2.circle(
            tile,
            tuple(int(v) for v in rng.uniform(0, t, 2)),
            int(rng.uniform(1, 3) * ppm * scale),
            inks[int(rng.integers(len(inks)))],
            -1,
            cv2.LINE_AA,
        )
    for _ in range(int(rng.integers(7, 12))):
        c = rng.uniform(0, t, 2)
        r = rng.uniform(18, 40) * ppm * scale
        seed = int(rng.integers(2**31))  # every wrapped copy of a flower is drawn alike
        for dx in (-t, 0, t):
            for dy in (-t, 0, t):
                x, y = c[0] + dx, c[1] + dy
                if -2 * r < x < t + 2 * r and -2 * r < y < t + 2 * r:
                    _flower(tile, (int(x), int(y)), r, inks, np.random.default_rng(seed))
    canvas = np.ascontiguousarray(tile_to(tile, csize, rng))
    return finish_cloth(rng, canvas, size, ppm, angle, scale, weave=0.02, gloss=0.3)


def _lace_tile(rng: np.random.Generator, ppm: float) -> np.ndarray:
    """0…1 thread coverage of one repeat of lace: a hexagonal net with solid flowers in it."""
    sx = max(int(rng.uniform(3.0, 5.0) * ppm), 4)
    sy = max(round(sx * 0.866), 2)
    cell = np.full((2 * sy, sx), 255, np.uint8)
    hole = max(int(sx * 0.36), 1)
    for x, y in ((0, 0), (sx, 0), (sx // 2, sy), (0, 2 * sy), (sx, 2 * sy)):
        cv2.circle(cell, (x, y), hole, 0, -1, cv2.LINE_AA)
    repeat = rng.uniform(70, 120) * ppm
    tile = cv2.repeat(cell, max(int(repeat / (2 * sy)), 1), max(int(repeat / sx), 1))
    th, tw = tile.shape
    petals = int(rng.integers(5, 9))
    r = min(tw, th) * rng.uniform(0.22, 0.3)
    for cx, cy in ((tw / 2, th / 2), (0, 0), (tw, 0), (0, th), (tw, th)):
        for k in range(petals):
            a = 2 * np.pi * k / petals
            p = (int(cx + 0.55 * r * np.cos(a)), int(cy + 0.55 * r * np.sin(a)))
            cv2.ellipse(
                tile,
                p,
                (int(0.42 * r), int(0.22 * r) + 1),
                np.degrees(a),
                0,
                360,
                255,
                -1,
                cv2.LINE_AA,
            )
            e = (int(cx + 0.6 * r * np.cos(a)), int(cy + 0.6 * r * np.sin(a)))
            cv2.circle(tile, e, max(int(0.07 * r), 1), 0, -1, cv2.LINE_AA)
        cv2.circle(tile, (int(cx), int(cy)), int(0.2 * r), 0, -1, cv2.LINE_AA)
        cv2.circle(tile, (int(cx), int(cy)), int(1.05 * r), 255, max(int(0.05 * r), 1), cv2.LINE_AA)
    return tile.astype(np.float32) / 255.0


def render_lace(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """A white or ecru lace cloth over a dark wooden table, which shows through the holes."""
    angle = float(rng.uniform(-12, 12))
    scale = 0.7
    csize = canvas_size(size, angle, scale)
    sp = SPECIES[str(rng.choice(["walnut", "dark-stained", "oak"]))]
    wood = wood_canvas(rng, csize, ppm * scale, sp)
    cover = tile_to(_lace_tile(rng, ppm * scale), csize, rng)
    shadow = cv2.GaussianBlur(cover, (0, 0), 1.2 * ppm * scale)
    shadow = np.roll(shadow, (int(ppm), int(ppm)), axis=(0, 1))
    under = modulate(wood, shadow, -0.45)
    thread = np.asarray([(244, 242, 236), (236, 226, 200), (250, 250, 250)][rng.integers(3)])
    shade = fbm(rng, csize, 50 * ppm * scale, octaves=2)
    lace = ramp(shade, [(-2.0, thread * 0.85), (2.0, np.minimum(thread * 1.05, 255))])
    cover = np.ascontiguousarray(cover)
    canvas = cv2.blendLinear(lace, under, cover, 1.0 - cover)
    return place(canvas, size, angle, scale)


def render_glass(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """A glass top over wood: green-tinted, with the soft reflections of a window and a lamp."""
    angle = float(rng.choice([0.0, 90.0]) + rng.uniform(-6, 6))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    cw, ch = csize
    sp = SPECIES[str(rng.choice(["oak", "walnut", "birch", "pine"]))]
    img = wood_canvas(rng, csize, ppm * scale, sp).astype(np.float32)
    img = img * np.asarray([0.86, 0.95, 0.9], np.float32) * rng.uniform(0.75, 0.95)
    refl = np.zeros((ch, cw), np.float32)
    x0, y0 = rng.uniform(0, cw * 0.6), rng.uniform(0, ch * 0.6)
    wx, wy = rng.uniform(0.25, 0.6) * cw, rng.uniform(0.25, 0.6) * ch
    bars = int(rng.integers(1, 4))
    for i in range(bars):  # window panes separated by glazing bars
        pane = np.array(
            [
                [x0 + i * wx / bars + 4, y0],
                [x0 + (i + 1) * wx / bars - 4, y0],
                [x0 + (i + 1) * wx / bars - 4 + 0.1 * wx, y0 + wy],
                [x0 + i * wx / bars + 4 + 0.1 * wx, y0 + wy],
            ],
            np.int32,
        )
        cv2.fillPoly(refl, [pane], 1.0, cv2.LINE_AA)
    refl = cv2.GaussianBlur(refl, (0, 0), rng.uniform(3, 12) * ppm * scale)
    refl *= 1 + 0.3 * smooth_noise(rng, csize, 80 * ppm * scale)
    img += refl[..., None] * np.float32(rng.uniform(40, 110))
    out = np.clip(img, 0, 255).astype(np.uint8)
    sheen(rng, out, 0.25)
    return modulate(place(out, size, angle, scale), fine_noise(rng, size), 0.01)


TERRAZZO: list[tuple[Rgb, list[Rgb]]] = [  # matrix, chips
    ((236, 232, 224), [(40, 40, 40), (180, 60, 50), (120, 120, 120), (200, 170, 120)]),
    ((220, 200, 196), [(240, 240, 236), (90, 80, 80), (210, 120, 110), (150, 160, 150)]),
    ((70, 72, 76), [(230, 230, 226), (190, 170, 140), (140, 40, 40), (120, 130, 150)]),
    ((210, 220, 214), [(30, 90, 80), (240, 240, 240), (200, 150, 60), (60, 60, 70)]),
]


def render_terrazzo(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """Terrazzo: angular stone chips of several colours set in a pale or dark matrix."""
    scale = 0.5
    csize = canvas_size(size, 0.0, scale)
    cw, ch = csize
    matrix, chips = TERRAZZO[int(rng.integers(len(TERRAZZO)))]
    canvas = np.empty((ch, cw, 3), np.uint8)
    canvas[:] = matrix
    k = 7
    spacing = rng.uniform(6, 14) * ppm * scale
    n = int(cw * ch / spacing**2)
    centres = rng.uniform((0, 0), (cw, ch), (n, 1, 2))
    angles = np.sort(rng.uniform(0, 2 * np.pi, (n, k)), axis=1)
    radii = rng.uniform(0.15, 0.6, (n, 1)) * spacing * rng.uniform(0.6, 1.0, (n, k))
    polys = (centres + np.stack([np.cos(angles), np.sin(angles)], -1) * radii[..., None]).astype(
        np.int32
    )
    which = rng.integers(0, len(chips), n)
    for i, colour in enumerate(chips):
        cv2.fillPoly(canvas, list(polys[which == i]), colour, cv2.LINE_AA)
    mottle = fbm(rng, csize, 40 * ppm * scale, octaves=2)
    canvas = modulate(canvas, mottle, 0.05)
    sheen(rng, canvas, 0.15)
    return modulate(place(canvas, size, 0.0, scale), fine_noise(rng, size), 0.02)

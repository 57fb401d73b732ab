"""Small repeating prints, for training only: a card-table cloth printed with suit signs, a
cloth of small geometric motifs, and a woven placemat.

Their small, regular, card-like marks (a pip, a diamond, a dot the size of an index) are what
the recogniser read as cards on the held-out cloths (lace, terrazzo): a classifier that has
seen many such patterns learns that a mark on a pattern is not an index. None of them copies a
held-out surface: the held-out ones stay unseen, to measure what this buys.
"""

from __future__ import annotations

import cv2
import numpy as np

from model.synth.faces.glyphs import SUIT_DESIGNS, suit_mask
from model.synth.surface_noise import Size, canvas_size, fbm, modulate, place, tile_to
from model.synth.surface_textile import finish_cloth

Rgb = tuple[int, int, int]

GROUNDS: list[Rgb] = [
    (246, 242, 232),
    (236, 228, 206),
    (28, 92, 56),
    (30, 52, 100),
    (120, 28, 36),
    (44, 44, 48),
    (200, 210, 222),
    (238, 214, 170),
]
INKS: list[Rgb] = [
    (24, 24, 28),
    (190, 30, 40),
    (250, 248, 240),
    (214, 172, 60),
    (40, 80, 150),
    (120, 120, 124),
    (70, 130, 90),
]


def _ground_and_inks(rng: np.random.Generator, count: int) -> tuple[Rgb, list[Rgb]]:
    ground = GROUNDS[int(rng.integers(len(GROUNDS)))]
    # inks that stand out from the ground, as printed patterns do
    contrast = [ink for ink in INKS if np.abs(np.subtract(ink, ground, dtype=np.int32)).sum() > 150]
    picks = rng.choice(len(contrast), size=min(count, len(contrast)), replace=False)
    return ground, [contrast[int(k)] for k in picks]


def _stamp(tile: np.ndarray, mask: np.ndarray, colour: Rgb, x: int, y: int) -> None:
    """Paint ``mask`` (uint8 coverage) centred at (x, y), wrapping round the tile's edges."""
    h, w = mask.shape
    th, tw = tile.shape[:2]
    ys = (np.arange(h) + y - h // 2) % th
    xs = (np.arange(w) + x - w // 2) % tw
    alpha = mask.astype(np.float32)[..., None] / 255.0
    patch = tile[np.ix_(ys, xs)].astype(np.float32)
    tile[np.ix_(ys, xs)] = (patch * (1 - alpha) + np.asarray(colour, np.float32) * alpha).astype(
        np.uint8
    )


def _lattice(rng: np.random.Generator, step: int) -> list[tuple[int, int]]:
    """Motif centres in a 2-step square tile: a square grid or a staggered (half-drop) one."""
    if rng.random() < 0.5:
        return [(step // 2 + i * step, step // 2 + j * step) for i in range(2) for j in range(2)]
    return [
        (step // 2, step // 2),
        (3 * step // 2, step // 2),
        (step, 3 * step // 2),
        (0, 3 * step // 2),
    ]


def render_suit_print(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """A card-table cloth printed with the four suit signs in rows, one or two inks."""
    angle = float(rng.choice([0.0, 45.0, 90.0]) + rng.uniform(-8, 8))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    step = max(int(rng.uniform(14, 40) * ppm * scale), 8)
    ground, inks = _ground_and_inks(rng, 2)
    tile = np.empty((2 * step, 2 * step, 3), np.uint8)
    tile[:] = ground
    design = SUIT_DESIGNS[int(rng.integers(len(SUIT_DESIGNS)))]
    height = max(int(step * rng.uniform(0.35, 0.7)), 4)
    for k, (x, y) in enumerate(_lattice(rng, step)):
        suit = "SHDC"[k]
        colour = inks[0] if suit in "SC" or len(inks) == 1 else inks[1]
        _stamp(tile, suit_mask(suit, design, height, bool(rng.random() < 0.3)), colour, x, y)
    canvas = np.ascontiguousarray(tile_to(tile, csize, rng))
    return finish_cloth(rng, canvas, size, ppm, angle, scale, gloss=float(rng.uniform(0, 0.15)))


def _motif(kind: str, size: int) -> np.ndarray:
    m = np.zeros((size + 2, size + 2), np.uint8)
    c, r = (size + 1) / 2, size / 2
    if kind == "dot":
        cv2.circle(m, (round(c * 16), round(c * 16)), round(r * 16), 255, -1, cv2.LINE_AA, 4)
    elif kind == "diamond":
        pts = np.array([[c, c - r], [c + 0.7 * r, c], [c, c + r], [c - 0.7 * r, c]])
        cv2.fillPoly(m, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    elif kind == "square":
        q = round(0.35 * size)
        m[round(c) - q : round(c) + q + 1, round(c) - q : round(c) + q + 1] = 255
    elif kind == "cross":
        t = max(1, size // 5)
        m[round(c) - t : round(c) + t + 1, 1:-1] = 255
        m[1:-1, round(c) - t : round(c) + t + 1] = 255
    else:  # ring
        cv2.circle(
            m, (round(c * 16), round(c * 16)), round(r * 12), 255, max(1, size // 6), cv2.LINE_AA, 4
        )
    return m


MOTIFS = ("dot", "diamond", "square", "cross", "ring")


def render_geometric(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """Small geometric motifs (dots, diamonds, squares, crosses, rings) in a repeat, at times
    over a thin grid of lines, one to three inks."""
    angle = float(rng.uniform(0, 180))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    step = max(int(rng.uniform(6, 30) * ppm * scale), 6)
    ground, inks = _ground_and_inks(rng, int(rng.integers(1, 4)))
    tile = np.empty((2 * step, 2 * step, 3), np.uint8)
    tile[:] = ground
    if rng.random() < 0.35:
        line = inks[-1]
        width = max(1, int(step * 0.06))
        for k in range(0, 2 * step, step):
            tile[k : k + width] = line
            tile[:, k : k + width] = line
    kinds = rng.choice(len(MOTIFS), size=int(rng.integers(1, 3)))
    motif = max(int(step * rng.uniform(0.3, 0.7)), 3)
    for k, (x, y) in enumerate(_lattice(rng, step)):
        mask = _motif(MOTIFS[int(kinds[k % len(kinds)])], motif)
        _stamp(tile, mask, inks[k % len(inks)], x + step // 2, y + step // 2)
    canvas = np.ascontiguousarray(tile_to(tile, csize, rng))
    return finish_cloth(rng, canvas, size, ppm, angle, scale, weave=0.04)


def render_woven(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """A woven placemat or rattan top: flat strips passing over and under one another."""
    angle = float(rng.uniform(0, 90))
    scale = 0.5
    w, h = canvas_size(size, angle, scale)
    strip = max(int(rng.uniform(6, 20) * ppm * scale), 3)
    colours = [
        np.array([196, 160, 104]),
        np.array([150, 110, 70]),
        np.array([222, 206, 170]),
        np.array([70, 60, 52]),
        np.array([180, 60, 50]),
    ]
    warp = colours[int(rng.integers(len(colours)))].astype(np.float32)
    weft = (
        (warp * rng.uniform(0.75, 1.1)).clip(0, 255)
        if rng.random() < 0.6
        else colours[int(rng.integers(len(colours)))].astype(np.float32)
    )
    ys, xs = np.mgrid[0:h, 0:w]
    over = (xs // strip + ys // strip) % 2 == 0
    across = np.where(over, (ys % strip) / strip, (xs % strip) / strip)
    shade = (0.78 + 0.22 * np.sin(np.pi * across))[..., None]  # each strip rounded
    img = np.where(over[..., None], warp, weft) * shade
    img = modulate(np.clip(img, 0, 255).astype(np.uint8), fbm(rng, (w, h), 60 * ppm * scale), 0.05)
    return place(img, size, angle, scale)

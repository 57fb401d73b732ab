"""Soft table coverings: card-table felt and woven or printed tablecloths.

Patterns are drawn on a work canvas at a fraction of the output resolution, shaded with the
soft wrinkles and storage creases of real cloth, then turned into the frame; the fibre or weave
texture, too fine to survive enlarging, is added at full resolution.
"""

from __future__ import annotations

import cv2
import numpy as np

from model.synth.surface_noise import (
    Size,
    canvas_size,
    fbm,
    modulate,
    place,
    ramp,
    sheen,
    smooth_noise,
    smoothstep,
    tile_to,
)

Rgb = tuple[int, int, int]

FELT_COLOURS: dict[str, list[Rgb]] = {
    "green": [(28, 96, 52), (20, 80, 40), (40, 110, 66), (16, 70, 48)],
    "blue": [(26, 62, 120), (20, 48, 96), (36, 80, 138), (24, 70, 110)],
    "red": [(132, 26, 32), (110, 20, 30), (150, 40, 40), (96, 24, 36)],
    "grey": [(110, 112, 114), (70, 72, 76), (44, 45, 48), (140, 138, 132)],
}


def _pick(rng: np.random.Generator, colours: list[Rgb], jitter: float = 0.08) -> np.ndarray:
    base = np.asarray(colours[int(rng.integers(len(colours)))], np.float32)
    return np.clip(base * (1 + rng.uniform(-jitter, jitter, 3)), 0, 255)


def _fibre_field(rng: np.random.Generator, size: Size, ppm: float, fuzz: float) -> np.ndarray:
    """Full-resolution zero-centred fibre texture: fine noise plus short stray fibres."""
    tile = rng.standard_normal((384, 384)).astype(np.float32) * 0.6
    tile = cv2.GaussianBlur(tile, (0, 0), 0.6 + fuzz)
    n = int(900 * fuzz)
    starts = rng.uniform(0, 384, (n, 2))
    angles = rng.uniform(0, np.pi, n)
    lengths = rng.uniform(1.5, 4.0, n) * ppm
    ends = starts + np.stack([np.cos(angles), np.sin(angles)], 1) * lengths[:, None]
    shades = rng.choice([-0.8, 0.9], n)
    for (x0, y0), (x1, y1), s in zip(starts, ends, shades, strict=True):
        cv2.line(tile, (int(x0), int(y0)), (int(x1), int(y1)), float(s), 1, cv2.LINE_AA)
    return tile_to(tile, size, rng)


def render_felt(rng: np.random.Generator, size: Size, ppm: float, colour: str) -> np.ndarray:
    w, h = size
    base = _pick(rng, FELT_COLOURS[colour])
    small = (max(w // 6, 8), max(h // 6, 8))
    mottle = fbm(rng, small, 40 * ppm / 6, octaves=3) * rng.uniform(0.1, 0.22)
    wear = smoothstep(0.6, 2.0, smooth_noise(rng, small, 160 * ppm / 6)) * rng.uniform(0, 0.3)
    t = mottle + wear
    low = ramp(t, [(-1.5, base * 0.8), (0.0, base), (1.5, np.minimum(base * 1.25 + 12, 255))])
    img = cv2.resize(low, size, interpolation=cv2.INTER_LINEAR)
    return modulate(img, _fibre_field(rng, size, ppm, rng.uniform(0.3, 0.8)), 0.2)


def _cloth_shading(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """Zero-centred brightness of lying cloth: soft wrinkles and the creases of storage folds."""
    w, h = size
    field = fbm(rng, size, 90 * ppm, octaves=2) * rng.uniform(0.01, 0.035)
    for axis, n in ((0, w), (1, h)):
        spacing = rng.uniform(220, 420) * ppm
        pos = np.arange(n, dtype=np.float32)
        d = (pos - rng.uniform(0, spacing) + spacing / 2) % spacing - spacing / 2
        width = rng.uniform(3, 8) * ppm
        ridge = d / width * np.exp(-((d / width) ** 2)) * rng.uniform(0.03, 0.1)
        field += ridge[None, :] if axis == 0 else ridge[:, None]
    return field


def _weave(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """Full-resolution thread texture: slubby threads both ways and fine noise."""
    tile = rng.standard_normal((256, 256)).astype(np.float32) * 0.4
    rows = cv2.resize(rng.standard_normal((256, 12)).astype(np.float32), (256, 256))
    cols = cv2.resize(rng.standard_normal((12, 256)).astype(np.float32), (256, 256))
    return tile_to(tile + rows * 0.5 + cols * 0.5, size, rng)


def finish_cloth(
    rng: np.random.Generator,
    canvas: np.ndarray,
    size: Size,
    ppm: float,
    angle: float,
    scale: float,
    weave: float = 0.06,
    gloss: float = 0.0,
) -> np.ndarray:
    ch, cw = canvas.shape[:2]
    canvas = modulate(canvas, _cloth_shading(rng, (cw, ch), ppm * scale), 1.0)
    if gloss:
        sheen(rng, canvas, gloss)
    img = place(canvas, size, angle, scale)
    return modulate(img, _weave(rng, size, ppm), weave)


def _square_wave(n: int, period: float, phase: float, duty: float = 0.5) -> np.ndarray:
    """Anti-aliased 0/1 bands along one axis, ``duty`` of every period wide."""
    x = (np.arange(n, dtype=np.float32) + phase) / period
    d = np.abs((x + 0.5) % 1.0 - 0.5)  # distance from the nearest band centre, in periods
    edge = 0.6 / period
    return 1 - smoothstep(duty / 2 - edge, duty / 2 + edge, d)


GINGHAM: list[Rgb] = [(196, 30, 40), (30, 60, 150), (40, 120, 60), (20, 20, 24), (230, 150, 30)]


def render_gingham(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    angle = float(rng.choice([0.0, 90.0]) + rng.uniform(-8, 8))
    scale = 0.5
    cw, ch = canvas_size(size, angle, scale)
    period = rng.uniform(6, 26) * ppm * scale
    sx = _square_wave(cw, period, rng.uniform(0, period))[None, :, None]
    sy = _square_wave(ch, period, rng.uniform(0, period))[:, None, None]
    white = np.asarray([246, 244, 238], np.float32) * rng.uniform(0.93, 1.0)
    dark = _pick(rng, GINGHAM)
    mid = white * 0.45 + dark * 0.55
    img = white + (mid - white) * (sx + sy) + (dark - 2 * mid + white) * (sx * sy)
    canvas = np.clip(img, 0, 255).astype(np.uint8)
    return finish_cloth(rng, canvas, size, ppm, angle, scale)


STRIPE_SETS: list[list[Rgb]] = [
    [(238, 232, 218), (40, 56, 96)],  # ticking
    [(244, 240, 232), (180, 36, 44), (30, 60, 120)],  # French linen
    [(226, 200, 150), (150, 60, 40), (70, 110, 80), (230, 170, 60), (40, 40, 40)],  # runner
    [(250, 248, 244), (120, 170, 200)],
    [(60, 50, 60), (200, 80, 60), (230, 200, 120), (80, 130, 140)],
]


def render_stripes(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    angle = float(rng.choice([0.0, 90.0]) + rng.uniform(-8, 8))
    scale = 0.5
    cw, ch = canvas_size(size, angle, scale)
    colours = STRIPE_SETS[int(rng.integers(len(STRIPE_SETS)))]
    n = 2 * int(rng.integers(2, 5))
    widths = rng.choice([2, 3, 5, 8, 12, 20, 30], n).astype(np.float32)
    widths[::2] *= rng.uniform(1, 3)  # the ground between accent stripes is wider
    picks = [0 if i % 2 == 0 else int(rng.integers(1, len(colours))) for i in range(n)]
    bands = np.asarray([colours[i] for i in picks], np.float32)
    edges = np.cumsum(widths * ppm * scale)
    x = (np.arange(cw) + rng.uniform(0, edges[-1])) % edges[-1]
    row = bands[np.searchsorted(edges, x, side="right").clip(0, len(bands) - 1)]
    row = cv2.GaussianBlur(row[None].astype(np.float32), (0, 0), 0.7)[0]
    canvas = np.ascontiguousarray(np.broadcast_to(row[None], (ch, cw, 3))).astype(np.uint8)
    return finish_cloth(rng, canvas, size, ppm, angle, scale)


def render_linen(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    angle = float(rng.uniform(-10, 10))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    base = _pick(
        rng, [(232, 226, 212), (214, 200, 176), (180, 196, 200), (150, 90, 80), (90, 100, 80)]
    )
    slub = smooth_noise(rng, csize, (25 * ppm, 1.0)) + smooth_noise(rng, csize, (1.0, 25 * ppm))
    t = slub * 0.5 + fbm(rng, csize, 60 * ppm * scale, octaves=2) * 0.1
    canvas = ramp(t, [(-2.0, base * 0.86), (0.0, base), (2.0, np.minimum(base * 1.1, 255))])
    return finish_cloth(rng, canvas, size, ppm, angle, scale, weave=0.09)


def _damask_motif(mask: np.ndarray, centre: tuple[float, float], r: float, petals: int) -> None:
    cx, cy = centre
    for k in range(petals):
        a = 2 * np.pi * k / petals
        c = (int(cx + 0.45 * r * np.cos(a)), int(cy + 0.45 * r * np.sin(a)))
        cv2.ellipse(
            mask, c, (int(0.38 * r), int(0.13 * r) + 1), np.degrees(a), 0, 360, 255, -1, cv2.LINE_AA
        )
    cv2.circle(mask, (int(cx), int(cy)), int(0.95 * r), 255, max(int(0.04 * r), 1), cv2.LINE_AA)
    cv2.circle(mask, (int(cx), int(cy)), int(0.14 * r) + 1, 0, -1, cv2.LINE_AA)
    for k in range(4):
        a = np.pi / 4 + k * np.pi / 2
        c = (int(cx + 1.25 * r * np.cos(a)), int(cy + 1.25 * r * np.sin(a)))
        cv2.ellipse(
            mask,
            c,
            (int(0.3 * r), int(0.12 * r) + 1),
            np.degrees(a) + 90,
            0,
            360,
            255,
            -1,
            cv2.LINE_AA,
        )


DAMASK: list[Rgb] = [(240, 238, 230), (236, 226, 200), (128, 30, 40), (150, 170, 140), (40, 50, 90)]


def render_damask(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    angle = float(rng.choice([0.0, 90.0]) + rng.uniform(-8, 8))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    tw = int(rng.uniform(90, 160) * ppm * scale)
    th = int(tw * rng.uniform(1.0, 1.4))
    mask = np.zeros((th, tw), np.uint8)
    r = tw * rng.uniform(0.24, 0.32)
    petals = int(rng.integers(5, 10))
    for centre in ((tw / 2, th / 2), (0, 0), (tw, 0), (0, th), (tw, th)):
        _damask_motif(mask, centre, r, petals)
    t = tile_to(mask.astype(np.float32) / 255.0, csize, rng)
    base = _pick(rng, DAMASK, 0.05)
    canvas = ramp(t, [(0.0, base * 0.93), (1.0, np.minimum(base * 1.06 + 6, 255))])
    return finish_cloth(rng, canvas, size, ppm, angle, scale, gloss=0.05)


def _print_flower(tile: np.ndarray, c: tuple[int, int], r: float, colour: Rgb, petals: int) -> None:
    for k in range(petals):
        a = 2 * np.pi * k / petals
        p = (int(c[0] + 0.55 * r * np.cos(a)), int(c[1] + 0.55 * r * np.sin(a)))
        cv2.circle(tile, p, max(int(0.45 * r), 1), colour, -1, cv2.LINE_AA)
    cv2.circle(tile, c, max(int(0.3 * r), 1), (240, 200, 60), -1, cv2.LINE_AA)


VINYL: list[tuple[Rgb, list[Rgb]]] = [
    ((246, 244, 236), [(220, 60, 60), (60, 150, 80), (240, 180, 40)]),
    ((240, 236, 220), [(40, 90, 160), (120, 170, 220)]),
    ((250, 250, 250), [(230, 120, 150), (120, 180, 90)]),
    ((230, 240, 232), [(30, 120, 90), (240, 140, 60)]),
]


def render_vinyl(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """A wipe-clean vinyl cloth with a small regular print (flowers or dots) and a gloss."""
    angle = float(rng.choice([0.0, 90.0]) + rng.uniform(-8, 8))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    ground, inks = VINYL[int(rng.integers(len(VINYL)))]
    step = int(rng.uniform(25, 60) * ppm * scale)
    tile = np.empty((2 * step, 2 * step, 3), np.uint8)
    tile[:] = ground
    dots = rng.random() < 0.4
    r = step * rng.uniform(0.15, 0.3)
    for i, (x, y) in enumerate(
        (
            (step // 2, step // 2),
            (3 * step // 2, 3 * step // 2),
            (3 * step // 2, step // 2),
            (step // 2, 3 * step // 2),
        )
    ):
        ink = inks[i % len(inks)]
        if dots:
            cv2.circle(tile, (x, y), max(int(r), 1), ink, -1, cv2.LINE_AA)
        else:
            _print_flower(tile, (x, y), r, ink, 5)
    canvas = np.ascontiguousarray(tile_to(tile, csize, rng))
    return finish_cloth(rng, canvas, size, ppm, angle, scale, weave=0.02, gloss=0.22)

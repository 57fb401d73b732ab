"""Hard table tops: speckled laminate, marble-effect laminate and dark slate."""

from __future__ import annotations

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
)

Rgb = tuple[int, int, int]

LAMINATE: list[tuple[Rgb, Rgb, Rgb]] = [  # ground, dark fleck, light fleck
    ((236, 234, 228), (120, 118, 114), (255, 255, 255)),
    ((200, 200, 196), (90, 90, 92), (240, 240, 236)),
    ((222, 208, 184), (130, 110, 90), (246, 238, 222)),
    ((96, 98, 100), (40, 40, 42), (170, 170, 168)),
    ((226, 232, 236), (110, 130, 150), (255, 255, 255)),
]


def render_speckled(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    scale = 0.5
    csize = canvas_size(size, 0.0, scale)
    ground, dark, light = (np.asarray(c, np.float32) for c in LAMINATE[rng.integers(len(LAMINATE))])
    cw, ch = csize
    t = fbm(rng, csize, 60 * ppm * scale, octaves=2) * 0.08
    grain = rng.random((ch, cw), dtype=np.float32)
    density = rng.uniform(0.02, 0.12)
    t[grain < density] = -1.0
    t[grain > 1 - density * 0.7] = 1.0
    canvas = ramp(t, [(-1.0, dark), (-0.3, ground), (0.3, ground), (1.0, light)])
    sheen(rng, canvas, 0.12)
    img = place(canvas, size, 0.0, scale)
    return modulate(img, fine_noise(rng, size), 0.025)


MARBLE: list[tuple[Rgb, Rgb]] = [  # ground, vein
    ((238, 236, 232), (120, 120, 126)),
    ((236, 230, 220), (170, 140, 100)),
    ((40, 40, 44), (220, 220, 216)),
    ((210, 214, 210), (70, 90, 80)),
]


def _sharpen(x: np.ndarray, squarings: int) -> np.ndarray:
    """``x ** 2 ** squarings`` by repeated squaring, far cheaper than a float power."""
    for _ in range(squarings):
        x = x * x
    return x


def render_marble(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    angle = float(rng.choice([0.0, 90.0]) + rng.uniform(-20, 20))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    cw, _ch = csize
    ground, vein = (np.asarray(c, np.float32) for c in MARBLE[rng.integers(len(MARBLE))])
    cell = 140 * ppm * scale
    turb = fbm(rng, csize, cell, octaves=4, gain=0.55)
    x = np.arange(cw, dtype=np.float32)[None, :] / np.float32(rng.uniform(3.0, 6.0) * cell)
    main = np.abs(np.sin((x + turb * rng.uniform(0.5, 1.0)) * np.pi))
    veins = _sharpen(1 - main, 4) * 1.0
    minor = _sharpen(1 - np.abs(fbm(rng, csize, cell * 0.6, octaves=3)), 5) * 0.45
    cloud = fbm(rng, csize, cell * 0.8, octaves=2) * 0.14
    t = np.clip(veins + minor, 0, 1) + cloud
    canvas = ramp(t, [(-0.3, ground * 1.03), (0.0, ground), (1.0, vein)])
    sheen(rng, canvas, 0.18)
    img = place(canvas, size, angle, scale)
    return modulate(img, fine_noise(rng, size), 0.015)


def render_slate(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    angle = float(rng.choice([0.0, 90.0]) + rng.uniform(-20, 20))
    scale = 0.5
    csize = canvas_size(size, angle, scale)
    base = np.asarray([(52, 56, 60), (40, 44, 50), (60, 62, 58), (34, 36, 40)][rng.integers(4)])
    base = base.astype(np.float32) * rng.uniform(0.85, 1.2)
    layers = fbm(rng, csize, (160 * ppm * scale, 30 * ppm * scale), octaves=4) * 0.2
    patches = fbm(rng, csize, 70 * ppm * scale, octaves=4) * 0.45
    grit = smooth_noise(rng, csize, 1.2) * 0.3
    t = layers + patches + grit
    canvas = ramp(t, [(-1.5, base * 0.7), (0.0, base), (1.5, base * 1.45 + 10)])
    sheen(rng, canvas, 0.08)
    img = place(canvas, size, angle, scale)
    return modulate(img, fine_noise(rng, size), 0.05)

"""A desk's surfaces: a cork board and a desk mat. The real photos laid cards on both (bridge
hands fanned on cork, rows of cards on a desk beside a keyboard)."""

from __future__ import annotations

import numpy as np

from model.synth.surface_noise import Size, fbm, fine_noise, modulate, ramp, sheen, smooth_noise

Rgb = tuple[int, int, int]

CORK: list[tuple[Rgb, Rgb, Rgb]] = [  # dark granule, ground, light granule
    ((118, 80, 46), (184, 140, 92), (222, 184, 132)),
    ((96, 64, 38), (160, 116, 74), (206, 164, 112)),
    ((130, 98, 64), (200, 162, 116), (232, 204, 160)),
]
MATS: list[Rgb] = [(30, 30, 32), (44, 46, 50), (26, 34, 58), (60, 56, 52), (24, 50, 40)]


def render_cork(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """Pressed cork: granules of 1–3 mm, darker and lighter, over a tan ground that wanders
    a little across the board."""
    dark, ground, light = (np.asarray(c, np.float32) for c in CORK[rng.integers(len(CORK))])
    granules = smooth_noise(rng, size, max(1.2 * ppm, 1.5)) * 0.7
    granules += smooth_noise(rng, size, max(2.6 * ppm, 1.5)) * 0.5
    t = granules + fbm(rng, size, 80 * ppm, octaves=2) * 0.35
    img = ramp(t, [(-1.6, dark), (-0.5, ground), (0.5, ground), (1.6, light)])
    return modulate(img, fine_noise(rng, size), 0.05)


def render_desk_mat(rng: np.random.Generator, size: Size, ppm: float) -> np.ndarray:
    """A fabric or rubber desk mat, dark, with a fine weave and the soft sheen of a lamp."""
    base = np.asarray(MATS[rng.integers(len(MATS))], np.float32) * rng.uniform(0.85, 1.15)
    t = fbm(rng, size, 120 * ppm, octaves=2) * 0.25
    img = ramp(t, [(-1.0, base * 0.8), (0.0, base), (1.0, np.minimum(base * 1.25, 255))])
    sheen(rng, img, float(rng.uniform(0.05, 0.2)))
    return modulate(img, fine_noise(rng, size), float(rng.uniform(0.04, 0.08)))

"""Wooden table tops: boards of flat-sawn timber with growth rings, fibre streaks, pores, knots,
seams between boards and a varnish sheen.

The rings follow the geometry of a real board: growth rings are cylinders round the pith, the
board is a plane a little way from it and slightly tilted, so the rings cut it in nested arches
("cathedrals") that wander as the tree grew unevenly.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from model.synth.surface_noise import (
    Size,
    canvas_size,
    fbm,
    place,
    ramp,
    sheen,
    smooth_noise,
)


@dataclass(frozen=True)
class Species:
    early: tuple[int, int, int]  # earlywood (light) colour, RGB
    late: tuple[int, int, int]  # latewood (dark) colour, RGB
    ring_mm: tuple[float, float]  # range of ring spacing
    contrast: float  # how far the rings go from early towards late
    pores: float  # density of dark pore flecks (oak, walnut)
    knots: int  # most knots per frame (pine)
    plank_mm: tuple[float, float]  # range of board widths
    sheen: float  # strength of the varnish highlight


SPECIES: dict[str, Species] = {
    "oak": Species((200, 163, 112), (146, 104, 62), (2.0, 4.5), 0.75, 0.6, 0, (110, 190), 0.10),
    "walnut": Species((128, 88, 60), (66, 42, 28), (2.0, 4.0), 0.7, 0.35, 0, (120, 220), 0.14),
    "pine": Species((226, 190, 134), (184, 122, 66), (3.0, 7.0), 0.85, 0.0, 3, (90, 160), 0.08),
    "dark-stained": Species((96, 60, 40), (44, 26, 18), (2.0, 4.5), 0.6, 0.2, 1, (100, 180), 0.2),
    "birch": Species((228, 206, 170), (204, 174, 132), (2.5, 6.0), 0.55, 0.0, 0, (250, 600), 0.07),
}


def _jitter_colour(
    rng: np.random.Generator, rgb: tuple[int, int, int], amount: float
) -> np.ndarray:
    gain = 1.0 + rng.uniform(-amount, amount)
    tint = rng.uniform(-amount, amount, 3) * 0.35
    return np.clip(np.asarray(rgb, np.float32) * gain * (1.0 + tint), 0, 255)


def _ring_tone(
    rng: np.random.Generator,
    tone: np.ndarray,
    box: tuple[int, int, int, int],
    ring_px: float,
    ppm: float,
) -> None:
    """Draw one board piece's rings into ``tone[y0:y1, x0:x1]`` (0 earlywood … 1 latewood)."""
    y0, y1, x0, x1 = box
    h, w = y1 - y0, x1 - x0
    v = (np.arange(h, dtype=np.float32) - rng.uniform(-0.3, 1.3) * h)[:, None]
    u = np.arange(w, dtype=np.float32)[None, :] - rng.uniform(0, w)
    depth = rng.uniform(20, 80) * ring_px  # distance from the pith to the board face
    tilt = rng.uniform(-0.06, 0.06)  # the pith is never quite parallel to the board
    wander = smooth_noise(rng, (w, h), (260 * ppm, 70 * ppm)) * np.float32(
        ring_px * rng.uniform(1.0, 2.0)
    )
    wander += smooth_noise(rng, (w, h), (80 * ppm, 15 * ppm)) * np.float32(ring_px * 0.25)
    dist = np.sqrt(v * v + (depth + tilt * u + wander) ** 2)
    phase = dist / np.float32(ring_px * rng.uniform(0.85, 1.15))
    frac = phase - np.floor(phase)
    # Earlywood darkens gradually into latewood, which stops abruptly at the next ring.
    tone[y0:y1, x0:x1] = cv2.GaussianBlur(frac ** np.float32(rng.uniform(2.5, 5.0)), (3, 3), 0)


def _boards(
    rng: np.random.Generator, size: Size, ppm: float, sp: Species
) -> tuple[list[tuple[int, int, int, int]], list[int], list[tuple[int, int]]]:
    """Board pieces as (y0, y1, x0, x1) boxes, plus the rows of long seams and the (row band,
    column) of butt joints."""
    w, h = size
    plank = rng.uniform(*sp.plank_mm) * ppm
    edges = [int(-rng.uniform(0, plank))]
    while edges[-1] < h:
        edges.append(int(edges[-1] + plank * rng.uniform(0.97, 1.03)))
    pieces, seams, joints = [], [], []
    for a, b in itertools.pairwise(edges):
        y0, y1 = max(a, 0), min(b, h)
        if y1 <= y0:
            continue
        if a > 0:
            seams.append(a)
        cuts = [0, w]
        if rng.random() < 0.35 and plank < 300 * ppm:
            cut = int(rng.uniform(0.1, 0.9) * w)
            cuts = [0, cut, w]
            joints.append((y0, y1, cut))
        pieces += [(y0, y1, c0, c1) for c0, c1 in itertools.pairwise(cuts)]
    return pieces, seams, joints


def wood_canvas(rng: np.random.Generator, size: Size, ppm: float, sp: Species) -> np.ndarray:
    """uint8 RGB boards with the grain running along x, ``ppm`` px per mm."""
    w, h = size
    ring_px = rng.uniform(*sp.ring_mm) * ppm
    tone = np.empty((h, w), np.float32)
    tint = np.zeros((h, w), np.float32)
    pieces, seams, joints = _boards(rng, size, ppm, sp)
    for box in pieces:
        _ring_tone(rng, tone, box, ring_px, ppm)
        tint[box[0] : box[1], box[2] : box[3]] = rng.normal(0, 0.08)
    fibres = smooth_noise(rng, size, (30 * ppm, 0.6 * ppm + 1))
    mottle = fbm(rng, size, 120 * ppm, octaves=3)
    t = (
        tone * np.float32(sp.contrast * rng.uniform(0.8, 1.1))
        + fibres * 0.07
        + mottle * 0.08
        + tint
    )
    if sp.pores > 0:
        pores = smooth_noise(rng, size, (3 * ppm + 1, 1.0))
        t += np.maximum(pores - (2.2 - sp.pores), 0) * 0.5
    early = _jitter_colour(rng, sp.early, 0.12)
    late = _jitter_colour(rng, sp.late, 0.12)
    img = ramp(t, [(-0.3, early + (early - late) * 0.3), (1.3, late + (late - early) * 0.3)])
    for cx, cy in rng.uniform((0, 0), (w, h), (int(rng.integers(0, sp.knots + 1)), 2)):
        _knot(rng, img, (cx, cy), ppm, late)
    for y in seams:
        _seam(img, (slice(max(y - 1, 0), y + 1), slice(None)), (slice(y + 1, y + 2), slice(None)))
    for y0, y1, x in joints:
        _seam(
            img, (slice(y0, y1), slice(max(x - 1, 0), x + 1)), (slice(y0, y1), slice(x + 1, x + 2))
        )
    return img


def _seam(img: np.ndarray, dark: tuple[slice, slice], light: tuple[slice, slice]) -> None:
    """A gap between boards: a dark line with a faint highlight on the bevel beside it."""
    img[dark] = img[dark] // 2
    img[light] = np.minimum(img[light].astype(np.uint16) * 9 // 8, 255)


def _knot(
    rng: np.random.Generator,
    img: np.ndarray,
    centre: tuple[float, float],
    ppm: float,
    late: np.ndarray,
) -> None:
    """A dark oval knot with a soft halo, drawn into a window round its centre."""
    h, w = img.shape[:2]
    rx, ry = rng.uniform(5, 14) * ppm, rng.uniform(3, 8) * ppm
    x0, x1 = int(max(centre[0] - 4 * rx, 0)), int(min(centre[0] + 4 * rx, w))
    y0, y1 = int(max(centre[1] - 4 * ry, 0)), int(min(centre[1] + 4 * ry, h))
    if x1 <= x0 or y1 <= y0:
        return
    yy = (np.arange(y0, y1, dtype=np.float32)[:, None] - centre[1]) / ry
    xx = (np.arange(x0, x1, dtype=np.float32)[None, :] - centre[0]) / rx
    d2 = xx * xx + yy * yy
    core = np.exp(-(d2**2)) * 0.85
    halo = np.exp(-d2 / 6) * 0.35 * (0.6 + 0.4 * np.cos(np.sqrt(d2) * 6))
    k = np.clip(core + halo, 0, 0.95)[..., None]
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - k) + late * 0.7 * k


def render_wood(rng: np.random.Generator, size: Size, ppm: float, species: str) -> np.ndarray:
    sp = SPECIES[species]
    angle = float(rng.choice([0.0, 90.0]) + rng.uniform(-6, 6))
    scale = 0.6
    csize = canvas_size(size, angle, scale)
    img = wood_canvas(rng, csize, ppm * scale, sp)
    sheen(rng, img, sp.sheen)
    return place(img, size, angle, scale)

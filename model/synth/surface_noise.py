"""Cheap procedural noise and placement for table and prop textures.

Every smooth field is a small grid of random numbers enlarged with one ``cv2.resize``, so a
field costs about as much as the resize, whatever its feature size. Everything takes a
``numpy.random.Generator``; nothing here touches a global random state.
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np

Size = tuple[int, int]  # (width, height) in pixels, as OpenCV takes it


def seeded_rng(*parts: object) -> np.random.Generator:
    """A generator seeded from a stable hash of ``parts`` (the same on every run and machine).

    >>> float(seeded_rng("oak", 1).random()) == float(seeded_rng("oak", 1).random())
    True
    """
    key = "|".join(str(part) for part in parts).encode()
    return np.random.default_rng(zlib.crc32(key))


def smooth_noise(
    rng: np.random.Generator, size: Size, cell: float | tuple[float, float]
) -> np.ndarray:
    """(h, w) float32 noise of unit-ish spread whose features are about ``cell`` px apart
    (``(cell_x, cell_y)`` for streaky, stretched noise)."""
    w, h = size
    cx, cy = (cell, cell) if np.isscalar(cell) else cell
    gw = max(round(w / max(float(cx), 1.0)) + 2, 2)
    gh = max(round(h / max(float(cy), 1.0)) + 2, 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def fbm(
    rng: np.random.Generator,
    size: Size,
    cell: float | tuple[float, float],
    octaves: int = 4,
    gain: float = 0.5,
) -> np.ndarray:
    """Fractal sum of ``smooth_noise`` octaves, each half the cell of the one before."""
    cx, cy = (cell, cell) if np.isscalar(cell) else cell
    total = np.zeros((size[1], size[0]), np.float32)
    amp, norm = 1.0, 0.0
    for _ in range(octaves):
        if max(cx, cy) < 1.5:
            break
        total += amp * smooth_noise(rng, size, (cx, cy))
        norm += amp * amp
        amp *= gain
        cx, cy = cx / 2, cy / 2
    return total / np.float32(np.sqrt(max(norm, 1e-6)))


def fine_noise(rng: np.random.Generator, size: Size, tile: int = 256) -> np.ndarray:
    """(h, w) float32 per-pixel noise (unit spread), tiled from one random square: repeats of
    pixel-sized noise are invisible and tiling is much cheaper than drawing every pixel."""
    w, h = size
    t = rng.standard_normal((tile, tile)).astype(np.float32)
    reps = cv2.repeat(t, h // tile + 2, w // tile + 2)
    ox, oy = int(rng.integers(0, tile)), int(rng.integers(0, tile))
    return reps[oy : oy + h, ox : ox + w]


def smoothstep(edge0: float, edge1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def ramp(t: np.ndarray, stops: list[tuple[float, tuple[float, float, float]]]) -> np.ndarray:
    """Colour a float field through a gradient: ``stops`` are (position, RGB) pairs in rising
    order; below the first or above the last the end colours hold. Returns (h, w, 3) uint8.
    A 256-entry lookup table makes this one cheap pass whatever the number of stops."""
    lo, hi = stops[0][0], stops[-1][0]
    xs = np.linspace(lo, hi, 256)
    pos = [p for p, _ in stops]
    lut = np.stack([np.interp(xs, pos, [c[i] for _, c in stops]) for i in range(3)], axis=-1)
    lut = np.clip(lut, 0, 255).astype(np.uint8).reshape(1, 256, 3)
    idx = cv2.convertScaleAbs(
        np.clip(t, lo, hi), alpha=255.0 / (hi - lo), beta=-lo * 255.0 / (hi - lo)
    )
    return cv2.LUT(cv2.merge([idx, idx, idx]), lut)


def canvas_size(size: Size, angle_deg: float, scale: float) -> Size:
    """The size of a work canvas drawn at ``scale`` × output resolution that covers the output
    frame once it is turned by ``angle_deg``."""
    w, h = size
    a = np.radians(angle_deg)
    cw = abs(w * np.cos(a)) + abs(h * np.sin(a))
    ch = abs(w * np.sin(a)) + abs(h * np.cos(a))
    return int(np.ceil(cw * scale)) + 4, int(np.ceil(ch * scale)) + 4


def place(canvas: np.ndarray, size: Size, angle_deg: float, scale: float) -> np.ndarray:
    """Turn and enlarge a work canvas (drawn at ``scale`` × output resolution, sized by
    ``canvas_size``) into the output frame with one affine warp."""
    w, h = size
    ch, cw = canvas.shape[:2]
    a = np.radians(angle_deg)
    c, s = np.cos(a) * scale, np.sin(a) * scale
    # Output pixel (x, y) samples the canvas at its centre plus the turned, scaled offset.
    m = np.array(
        [
            [c, -s, cw / 2 - c * w / 2 + s * h / 2],
            [s, c, ch / 2 - s * w / 2 - c * h / 2],
        ],
        np.float32,
    )
    return cv2.warpAffine(
        canvas,
        m,
        (w, h),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REFLECT,
    )


def tile_to(tile: np.ndarray, size: Size, rng: np.random.Generator) -> np.ndarray:
    """Repeat ``tile`` over a frame of ``size`` from a random starting offset."""
    w, h = size
    th, tw = tile.shape[:2]
    reps = cv2.repeat(tile, h // th + 2, w // tw + 2)
    ox, oy = int(rng.integers(0, tw)), int(rng.integers(0, th))
    return reps[oy : oy + h, ox : ox + w]


def modulate(img: np.ndarray, field: np.ndarray, amount: float) -> np.ndarray:
    """Brighten and darken a uint8 RGB image by a zero-centred float field (h, w):
    ``img × (1 + amount × field)``, done in 8-bit so it costs two cheap passes."""
    f = cv2.convertScaleAbs(np.clip(field * amount, -0.99, 0.99), alpha=128.0, beta=128.0)
    return cv2.multiply(img, cv2.merge([f, f, f]), scale=1.0 / 128.0)


def sheen(rng: np.random.Generator, img: np.ndarray, strength: float) -> None:
    """Add the soft reflection of a ceiling lamp in a varnished or glossy top, in place."""
    h, w = img.shape[:2]
    cx, cy = rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h
    r = rng.uniform(0.3, 0.7) * max(w, h)
    yy = ((np.arange(h, dtype=np.float32) - cy) / r)[:, None] ** 2
    xx = ((np.arange(w, dtype=np.float32) - cx) / r)[None, :] ** 2
    glow = np.exp(-(xx + yy)) * np.float32(strength * 255 * rng.uniform(0.4, 1.0))
    g = glow.astype(np.uint8)
    cv2.add(img, cv2.merge([g, g, g]), dst=img)

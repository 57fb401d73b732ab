"""Raster helpers shared by the face painters: anti-aliased shapes, masks, ink and card stock.

Everything works on ``uint8`` RGB arrays in face pixels. Shapes take float coordinates and are
drawn with OpenCV's anti-aliased rasteriser at 1/16 px precision.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterable, Sequence

import cv2
import numpy as np

Color = tuple[int, int, int]

_SHIFT = 4
_ONE = 1 << _SHIFT
AA = cv2.LINE_AA


def seed_of(*parts: object) -> int:
    """A stable seed from any printable parts (never Python's salted ``hash``).

    >>> seed_of("classic", "KH", 0) == seed_of("classic", "KH", 0)
    True
    """
    return zlib.crc32("\x1f".join(str(p) for p in parts).encode())


def rng_for(*parts: object) -> np.random.Generator:
    return np.random.default_rng(seed_of(*parts))


def fixed(points: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """Float points to OpenCV's fixed-point int32 form (for ``shift=4``)."""
    return np.round(np.asarray(points, np.float64) * _ONE).astype(np.int32)


def fill(img: np.ndarray, polys: Iterable[np.ndarray], color: Color | int) -> None:
    """Fill each polygon separately (their union), anti-aliased."""
    for p in polys:
        cv2.fillPoly(img, [fixed(p)], color, AA, _SHIFT)


def lines(
    img: np.ndarray,
    polylines: Iterable[np.ndarray],
    color: Color | int,
    thickness: float,
    closed: bool = False,
) -> None:
    t = max(1, round(thickness))
    for p in polylines:
        cv2.polylines(img, [fixed(p)], closed, color, t, AA, _SHIFT)


def ellipse(
    img: np.ndarray,
    center: tuple[float, float],
    axes: tuple[float, float],
    color: Color | int,
    thickness: float = -1,
    angle: float = 0.0,
    start: float = 0.0,
    end: float = 360.0,
) -> None:
    c = (round(center[0] * _ONE), round(center[1] * _ONE))
    a = (max(1, round(axes[0] * _ONE)), max(1, round(axes[1] * _ONE)))
    t = -1 if thickness < 0 else max(1, round(thickness))
    cv2.ellipse(img, c, a, angle, start, end, color, t, AA, _SHIFT)


def circle(
    img: np.ndarray, center: tuple[float, float], r: float, color: Color | int, t: float = -1
) -> None:
    ellipse(img, center, (r, r), color, t)


def rect(
    img: np.ndarray, x0: float, y0: float, x1: float, y1: float, color: Color | int, t: float = -1
) -> None:
    poly = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    if t < 0:
        fill(img, [poly], color)
    else:
        lines(img, [poly], color, t, closed=True)


def rounded_rect_poly(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    """The outline of a rounded rectangle as one polygon."""
    r = max(0.0, min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    if r < 0.5:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    t = np.linspace(0, np.pi / 2, 10)
    parts = []
    for cx, cy, a0 in ((x1 - r, y0 + r, -np.pi / 2), (x1 - r, y1 - r, 0.0)):
        parts.append(np.stack([cx + r * np.cos(a0 + t), cy + r * np.sin(a0 + t)], 1))
    for cx, cy, a0 in ((x0 + r, y1 - r, np.pi / 2), (x0 + r, y0 + r, np.pi)):
        parts.append(np.stack([cx + r * np.cos(a0 + t), cy + r * np.sin(a0 + t)], 1))
    return np.concatenate(parts)


def star_poly(cx: float, cy: float, r_out: float, r_in: float, n: int = 5, rot: float = -90):
    a = np.deg2rad(rot) + np.arange(2 * n) * np.pi / n
    r = np.where(np.arange(2 * n) % 2 == 0, r_out, r_in)
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)


def arc_pts(cx, cy, rx, ry, a0, a1, n: int = 24) -> np.ndarray:
    """Points along an elliptic arc; angles in degrees, 0 = right, 90 = down (y points down)."""
    a = np.deg2rad(np.linspace(a0, a1, n))
    return np.stack([cx + rx * np.cos(a), cy + ry * np.sin(a)], 1)


def paint(img: np.ndarray, mask: np.ndarray, color: Color, x: int, y: int) -> None:
    """Blend ``color`` through ``mask`` (uint8 coverage) into ``img`` with its top-left at (x, y);
    parts outside the image are clipped."""
    h, w = mask.shape
    H, W = img.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x0 >= x1 or y0 >= y1:
        return
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x]
    region = img[y0:y1, x0:x1]
    a = m.astype(np.float32)[..., None] * (1 / 255)
    out = region.astype(np.float32) * (1 - a) + np.asarray(color, np.float32) * a
    region[:] = np.round(out).astype(np.uint8)


def tight(mask: np.ndarray) -> np.ndarray:
    """Crop a coverage mask to its non-zero pixels (an empty mask stays 1x1)."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def scaled(mask: np.ndarray, sx: float, sy: float = 1.0) -> np.ndarray:
    if abs(sx - 1) < 1e-3 and abs(sy - 1) < 1e-3:
        return mask
    h, w = mask.shape
    size = (max(1, round(w * sx)), max(1, round(h * sy)))
    return cv2.resize(mask, size, interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=16)
def card_alpha(width: int, height: int, radius: int) -> np.ndarray:
    """The card's outline: 255 inside, anti-aliased rounded corners, 0 outside."""
    m = np.zeros((height, width), np.uint8)
    fill(m, [rounded_rect_poly(0, 0, width - 1, height - 1, radius)], 255)
    m.setflags(write=False)
    return m


@functools.lru_cache(maxsize=64)
def stock(width: int, height: int, color: Color, mottle: float, key: str) -> np.ndarray:
    """Plain card stock: the paper colour with a soft low-frequency mottling (cached per deck)."""
    rng = rng_for("stock", key, width)
    low = rng.standard_normal((height // 25 + 2, width // 25 + 2)).astype(np.float32)
    low = cv2.resize(low, (width, height), interpolation=cv2.INTER_CUBIC)
    fib = rng.standard_normal((height // 3 + 1, width // 6 + 1)).astype(np.float32)
    fib = cv2.resize(fib, (width, height), interpolation=cv2.INTER_LINEAR)
    tone = mottle * (0.8 * low + 0.5 * fib)
    img = np.asarray(color, np.float32)[None, None, :] + tone[..., None]
    out = np.clip(np.round(img), 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


def grain(img: np.ndarray, sigma: float, *seed: object) -> np.ndarray:
    """Add per-card print and paper grain (the same for a face with or without its indices)."""
    if sigma <= 0:
        return img
    rng = rng_for("grain", *seed)
    h, w = img.shape[:2]
    n = rng.standard_normal((h, w, 1), dtype=np.float32) * sigma
    return np.clip(img.astype(np.float32) + n, 0, 255).astype(np.uint8)


def finish(rgb: np.ndarray, radius: int, edge: float = 0.1) -> np.ndarray:
    """Darken the cut edge a little and add the rounded-corner alpha channel."""
    h, w = rgb.shape[:2]
    alpha = card_alpha(w, h, radius)
    if edge > 0:
        ring = np.zeros((h, w), np.uint8)
        lines(ring, [rounded_rect_poly(0.5, 0.5, w - 1.5, h - 1.5, radius)], 255, 1, closed=True)
        a = ring.astype(np.float32)[..., None] * (edge / 255)
        rgb = np.round(rgb.astype(np.float32) * (1 - a)).astype(np.uint8)
    return np.dstack([rgb, alpha])


def mix(a: Color, b: Color, t: float) -> Color:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]

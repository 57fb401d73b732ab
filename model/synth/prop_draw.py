"""Drawing helpers for props: anti-aliased masks in millimetres, rounded relief and its shading.

Props are drawn at ``PX_PER_MM``; masks are drawn ``SUPERSAMPLE`` times larger and shrunk, which
gives the soft, anti-aliased edges a camera sees. Relief comes from a distance transform of a
mask (an object is higher away from its edge), lit from the upper left like a room light.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

PX_PER_MM = 4.0
SUPERSAMPLE = 2
LIGHT = np.array([-0.45, -0.6, 0.66], np.float32)  # towards the lamp: up-left and above

Draw = Callable[[np.ndarray, float], None]  # draws 255 on a uint8 mask; gets px per mm


def blank(size_mm: tuple[float, float]) -> tuple[int, int]:
    """Pixel (w, h) of a prop canvas of ``size_mm``."""
    return max(round(size_mm[0] * PX_PER_MM), 2), max(round(size_mm[1] * PX_PER_MM), 2)


def mask(size_px: tuple[int, int], draw: Draw) -> np.ndarray:
    """(h, w) float32 0…1 coverage of whatever ``draw`` paints, anti-aliased by supersampling."""
    w, h = size_px
    big = np.zeros((h * SUPERSAMPLE, w * SUPERSAMPLE), np.uint8)
    draw(big, PX_PER_MM * SUPERSAMPLE)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def pt(p: tuple[float, float] | np.ndarray, s: float) -> tuple[int, int]:
    """A point in mm as integer pixels at ``s`` px per mm."""
    return round(p[0] * s), round(p[1] * s)


def ellipse(centre, axes, angle: float = 0.0) -> Draw:
    def draw(m: np.ndarray, s: float) -> None:
        cv2.ellipse(m, pt(centre, s), pt(axes, s), angle, 0, 360, 255, -1, cv2.LINE_AA)

    return draw


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> Draw:
    def draw(m: np.ndarray, s: float) -> None:
        rr = int(r * s)
        a, b = pt((x0, y0), s), pt((x1, y1), s)
        cv2.rectangle(m, (a[0] + rr, a[1]), (b[0] - rr, b[1]), 255, -1)
        cv2.rectangle(m, (a[0], a[1] + rr), (b[0], b[1] - rr), 255, -1)
        for cx, cy in (
            (a[0] + rr, a[1] + rr),
            (b[0] - rr, a[1] + rr),
            (a[0] + rr, b[1] - rr),
            (b[0] - rr, b[1] - rr),
        ):
            cv2.circle(m, (cx, cy), rr, 255, -1, cv2.LINE_AA)

    return draw


def polygon(points_mm: np.ndarray) -> Draw:
    def draw(m: np.ndarray, s: float) -> None:
        cv2.fillPoly(m, [np.round(np.asarray(points_mm) * s).astype(np.int32)], 255, cv2.LINE_AA)

    return draw


def tapered(p0, p1, r0: float, r1: float) -> Draw:
    """A rounded, tapering limb from ``p0`` (radius ``r0``) to ``p1`` (radius ``r1``)."""

    def draw(m: np.ndarray, s: float) -> None:
        a, b = np.asarray(p0, np.float64), np.asarray(p1, np.float64)
        d = b - a
        n = np.array([-d[1], d[0]]) / (np.hypot(*d) + 1e-9)
        quad = np.array([a + n * r0, b + n * r1, b - n * r1, a - n * r0]) * s
        cv2.fillPoly(m, [np.round(quad).astype(np.int32)], 255, cv2.LINE_AA)
        cv2.circle(m, pt(a, s), int(r0 * s), 255, -1, cv2.LINE_AA)
        cv2.circle(m, pt(b, s), int(r1 * s), 255, -1, cv2.LINE_AA)

    return draw


def relief(m: np.ndarray, radius_mm: float) -> np.ndarray:
    """Height 0…1 of a rounded object covering ``m``: rising over ``radius_mm`` from its edge
    like the side of a cylinder, flat on top."""
    inside = (m > 0.5).astype(np.uint8)
    d = cv2.distanceTransform(inside, cv2.DIST_L2, 5) / np.float32(radius_mm * PX_PER_MM)
    t = np.clip(d, 0, 1)
    return np.sqrt(1 - (1 - t) ** 2)


def lighting(
    height: np.ndarray, depth_mm: float, gloss: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Diffuse factor (1 where flat) and specular highlight (0…1) of a height field whose
    full height is ``depth_mm``."""
    k = np.float32(depth_mm * PX_PER_MM / 8.0)
    gx = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3) * k
    gy = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3) * k
    norm = np.sqrt(gx * gx + gy * gy + 1)
    ndotl = (-gx * LIGHT[0] - gy * LIGHT[1] + LIGHT[2]) / norm
    diffuse = np.clip(ndotl / LIGHT[2], 0.15, 1.6)
    spec = np.zeros_like(height)
    if gloss:
        half = LIGHT + np.array([0, 0, 1], np.float32)
        half /= np.linalg.norm(half)
        ndoth = np.clip((-gx * half[0] - gy * half[1] + half[2]) / norm, 0, 1)
        spec = ndoth**40 * np.float32(gloss)
    return diffuse, spec


def radial(size_px: tuple[int, int], centre_mm, radius_mm: float) -> np.ndarray:
    """Distance from ``centre_mm`` in units of ``radius_mm`` at every pixel."""
    w, h = size_px
    x = (np.arange(w, dtype=np.float32) + 0.5) / PX_PER_MM - centre_mm[0]
    y = (np.arange(h, dtype=np.float32) + 0.5) / PX_PER_MM - centre_mm[1]
    return np.sqrt(x[None, :] ** 2 + y[:, None] ** 2) / np.float32(radius_mm)


def grain(rng: np.random.Generator, size_px: tuple[int, int], blur: float = 0.7) -> np.ndarray:
    """Zero-centred fine surface texture (paper, plastic, skin), unit-ish spread."""
    w, h = size_px
    n = rng.standard_normal((h, w)).astype(np.float32)
    n = cv2.GaussianBlur(n, (0, 0), blur)
    return n / max(float(n.std()), 1e-6)


class Layers:
    """An RGBA prop built up from back to front with the "over" operator, in float."""

    def __init__(self, size_px: tuple[int, int]) -> None:
        w, h = size_px
        self.rgb = np.zeros((h, w, 3), np.float32)
        self.alpha = np.zeros((h, w), np.float32)

    @property
    def size(self) -> tuple[int, int]:
        return self.alpha.shape[1], self.alpha.shape[0]

    def paint(self, cover: np.ndarray, colour) -> None:
        """Lay ``colour`` (an RGB triple or an (h, w, 3) image, 0…255) where ``cover`` says."""
        c = cover[..., None]
        self.rgb = self.rgb * (1 - c) + np.asarray(colour, np.float32) * c
        self.alpha = self.alpha * (1 - cover) + cover

    def shade(self, factor: np.ndarray, add: np.ndarray | None = None) -> None:
        """Multiply by a diffuse factor and add a (white) highlight, where already painted."""
        self.rgb *= factor[..., None]
        if add is not None:
            self.rgb += add[..., None] * 255.0

    def rgba(self) -> np.ndarray:
        out = np.empty((*self.alpha.shape, 4), np.uint8)
        out[..., :3] = np.clip(self.rgb, 0, 255)
        out[..., 3] = np.clip(self.alpha * 255.0 + 0.5, 0, 255)
        out[out[..., 3] == 0, :3] = 0
        return out

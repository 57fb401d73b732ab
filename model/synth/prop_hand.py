"""A player's hand reaching onto the table, seen from above (the back of the hand).

The wrist is at the bottom of the image and the forearm runs off its bottom border; the scene
turns the prop to whichever frame border the hand enters from. Fingers are tapered rounded
limbs with knuckle creases and nails; each finger is its own rounded solid, so touching fingers
still show the groove between them.
"""

from __future__ import annotations

import cv2
import numpy as np

from model.synth.prop_draw import (
    PX_PER_MM,
    Layers,
    blank,
    ellipse,
    grain,
    lighting,
    mask,
    polygon,
    pt,
    radial,
    relief,
    tapered,
)
from model.synth.surface_noise import smooth_noise
from model.synth.types import Prop

# From very light to very dark skin (sRGB, back of the hand under warm room light).
SKIN = [
    (250, 218, 190),
    (238, 196, 166),
    (226, 176, 140),
    (204, 150, 112),
    (180, 124, 88),
    (150, 98, 66),
    (118, 76, 52),
    (92, 60, 42),
    (70, 46, 34),
]
SLEEVES = [
    (30, 34, 50),
    (120, 20, 30),
    (200, 200, 196),
    (60, 90, 60),
    (40, 40, 40),
    (90, 120, 170),
    (150, 120, 90),
    (220, 180, 60),
]
NAIL_PAINT = [(180, 20, 40), (220, 120, 140), (60, 20, 40), (240, 200, 200)]

# Per finger (index, middle, ring, little): base offset from the hand's centre line (mm),
# length and base half-width, and the direction it splays (degrees per unit of spread).
FINGERS = [
    (-28.0, 72.0, 9.5, -12.0),
    (-9.0, 80.0, 9.6, -3.0),
    (10.0, 75.0, 9.0, 6.0),
    (27.0, 58.0, 8.0, 15.0),
]


def _turn(points: np.ndarray, centre: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return (points - centre) @ np.array([[c, s], [-s, c]]) + centre


def render_hand(rng: np.random.Generator) -> Prop:
    k = float(rng.uniform(0.85, 1.12))  # hand size
    w_mm, h_mm = 150.0 * k, 240.0 * k
    size = blank((w_mm, h_mm))
    mirror = rng.random() < 0.5  # left or right hand
    tilt = float(np.radians(rng.uniform(-14, 14)))
    pivot = np.array([w_mm / 2, h_mm])
    cx = w_mm / 2 + rng.uniform(-6, 6) * k
    wrist_y = h_mm - rng.uniform(30, 55) * k
    knuckle_y = wrist_y - rng.uniform(82, 96) * k

    def place(pts) -> np.ndarray:
        p = np.atleast_2d(np.asarray(pts, np.float64)).copy()
        if mirror:
            p[:, 0] = w_mm - p[:, 0]
        return _turn(p, pivot, tilt)

    pose = str(rng.choice(["flat", "relaxed", "curled", "pointing"]))
    spread = float(rng.uniform(0.0, 1.2)) if pose == "flat" else float(rng.uniform(0.0, 0.5))
    parts: list[tuple[np.ndarray, float, float]] = []  # (mask, relief radius mm, height)

    palm_pts = np.array(
        [
            [cx - 27 * k, wrist_y],
            [cx - 37 * k, wrist_y - 40 * k],
            [cx - 40 * k, knuckle_y + 8 * k],
            [cx - 30 * k, knuckle_y - 2 * k],
            [cx + 30 * k, knuckle_y + 2 * k],
            [cx + 38 * k, knuckle_y + 12 * k],
            [cx + 35 * k, wrist_y - 35 * k],
            [cx + 27 * k, wrist_y],
        ]
    )
    arm_pts = np.array(
        [
            [cx - 27 * k, wrist_y - 5],
            [cx - 33 * k, h_mm + 40],
            [cx + 33 * k, h_mm + 40],
            [cx + 27 * k, wrist_y - 5],
        ]
    )
    palm = np.maximum(mask(size, polygon(place(palm_pts))), mask(size, polygon(place(arm_pts))))
    palm = _soften(palm, 4.0)
    parts.append((palm, 16.0, 1.0))

    thumb_base = np.array([cx - 26 * k, wrist_y - 18 * k])
    a = np.radians(rng.uniform(-55, -25) if pose != "curled" else rng.uniform(-20, -5))
    thumb_len = rng.uniform(50, 62) * k * (0.75 if pose == "curled" else 1.0)
    thumb_tip = thumb_base + thumb_len * np.array([np.sin(a), -np.cos(a)])
    p0, p1 = place([thumb_base, thumb_tip])
    thumb = mask(size, tapered(p0, p1, 11.5 * k, 9.0 * k))
    parts.append((thumb, 10.0 * k, 0.85))
    tips = [(p1, (p1 - p0) / np.linalg.norm(p1 - p0), 9.0 * k)]

    for i, (dx, length, r0, splay) in enumerate(FINGERS):
        curl = {
            "flat": 1.0,
            "relaxed": rng.uniform(0.7, 0.9),
            "curled": rng.uniform(0.35, 0.55),
            "pointing": 1.0 if i == 0 else rng.uniform(0.3, 0.45),
        }[pose]
        ang = np.radians(splay * spread + rng.uniform(-2, 2))
        base = np.array([cx + dx * k, knuckle_y + 6 * k + abs(dx) * 0.12 * k])
        tip = base + length * k * curl * np.array([np.sin(ang), -np.cos(ang)])
        q0, q1 = place([base, tip])
        r1 = r0 * k * (0.82 if curl > 0.6 else 0.95)
        parts.append((mask(size, tapered(q0, q1, r0 * k, r1)), r0 * k, 0.9))
        tips.append((q1, (q1 - q0) / (np.linalg.norm(q1 - q0) + 1e-9), r1 if curl > 0.6 else 0.0))

    cover = np.max(np.stack([m for m, _, _ in parts]), axis=0)
    # The hand is one rounded mass; each finger adds its own rounded ridge on top, so touching
    # fingers keep the groove between them and the bones show faintly on the back of the hand.
    height = relief(cover, 16.0) * 0.75
    for m, r, hgt in parts[1:]:
        height += relief(m, r) * np.float32(0.3 * hgt)
    for dx, *_ in FINGERS:  # knuckle bumps on the back of the hand
        c = place([[cx + dx * k, knuckle_y + 9 * k]])[0]
        height += np.exp(-(radial(size, c, 5.5 * k) ** 2)) * np.float32(0.12)
    height = cv2.GaussianBlur(height, (0, 0), 3.0)

    skin = np.asarray(SKIN[int(rng.integers(len(SKIN)))], np.float32) * rng.uniform(0.93, 1.05)
    flush = np.clip(skin * np.array([1.02, 0.86, 0.84]), 0, 255)
    blotch = np.clip(smooth_noise(rng, size, 25.0) * 0.5 + 0.5, 0, 1)[..., None] * 0.35
    colour = skin * (1 - blotch) + flush * blotch
    layers = Layers(size)
    layers.paint(cover, colour)
    creases = np.zeros(cover.shape, np.uint8)
    nails = []
    for (tip, direction, r1), (_, r, _) in zip(tips, parts[1:], strict=True):
        _creases(creases, tip, direction, r, rng)
        if r1 > 0:
            nails.append((tip - direction * r1 * 0.55, direction, r1))
    layers.paint(creases.astype(np.float32) / 255.0 * 0.22 * cover, skin * 0.55)
    paint = NAIL_PAINT[int(rng.integers(len(NAIL_PAINT)))] if rng.random() < 0.2 else None
    for centre, direction, r1 in nails:
        ang = float(np.degrees(np.arctan2(direction[1], direction[0])))
        nail = mask(size, ellipse(centre, (r1 * 0.75, r1 * 0.62), ang))
        natural = np.clip(skin * 0.6 + np.array([240, 205, 200]) * 0.4, 0, 255)
        layers.paint(nail * 0.85, paint or natural)
    diffuse, spec = lighting(height, 14.0, gloss=0.12)
    texture = 1 + grain(rng, size, 0.8) * 0.02
    layers.shade(np.where(cover > 0.01, diffuse * texture, 1.0), spec * cover)
    _sleeve(rng, layers, size, place, cx, wrist_y, k, h_mm)
    rgba = _clear_sides(layers.rgba())
    return Prop(
        "hand",
        rgba,
        (rgba.shape[1] / PX_PER_MM, h_mm),
        edge=True,
        extra={"pose": pose, "left": mirror},
    )


def _clear_sides(rgba: np.ndarray) -> np.ndarray:
    """Widen the image with empty columns until only its bottom border is touched (a tilted
    sleeve can reach a side)."""
    cols = np.flatnonzero(rgba[..., 3].max(axis=0))
    pad = 4
    left = max(pad - int(cols[0]), 0)
    right = max(pad - (rgba.shape[1] - 1 - int(cols[-1])), 0)
    if left or right:
        rgba = np.pad(rgba, ((0, 0), (left, right), (0, 0)))
    return rgba


def _soften(m: np.ndarray, radius_px: float) -> np.ndarray:
    """Round the corners of a coverage mask (organic outlines from straight-edged polygons)."""
    b = cv2.GaussianBlur(m, (0, 0), radius_px)
    return np.clip((b - 0.5) * 4 + 0.5, 0, 1)


def _creases(img: np.ndarray, tip: np.ndarray, direction: np.ndarray, r: float, rng) -> None:
    """Short wrinkle lines across a finger at its two joints."""
    normal = np.array([-direction[1], direction[0]])
    for back in (r * 2.6, r * 4.8):
        for j in range(int(rng.integers(2, 4))):
            c = tip - direction * (back + j * 1.2)
            a, b = c - normal * r * 0.5, c + normal * r * 0.5
            cv2.line(img, pt(a, PX_PER_MM), pt(b, PX_PER_MM), 255, 1, cv2.LINE_AA)


def _sleeve(rng, layers: Layers, size, place, cx: float, wrist_y: float, k: float, h_mm: float):
    if rng.random() < 0.45:
        return
    top = wrist_y + rng.uniform(5, 25) * k
    half = rng.uniform(38, 46) * k
    pts = np.array(
        [
            [cx - half, top],
            [cx + half, top + rng.uniform(-4, 4)],
            [cx + half + 4, h_mm + 40],
            [cx - half - 4, h_mm + 40],
        ]
    )
    cuff = mask(size, polygon(place(pts)))
    folds = 1 + smooth_noise(rng, size, (12.0, 40.0)) * 0.08
    colour = np.asarray(SLEEVES[int(rng.integers(len(SLEEVES)))], np.float32)
    lit = relief(cuff, 12.0) * 0.3 + 0.7
    layers.paint(cuff, colour * (folds * lit)[..., None])

"""A mobile phone lying on the table, face up (dark or lit screen) or face down (camera bump)."""

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
    relief,
    rounded_rect,
)
from model.synth.types import Prop

BACKS = [
    (24, 24, 28),
    (40, 44, 56),
    (230, 230, 226),
    (200, 180, 160),
    (30, 60, 90),
    (140, 30, 40),
    (70, 90, 70),
]
TILE_COLOURS = [
    (240, 80, 60),
    (60, 140, 240),
    (80, 200, 100),
    (250, 200, 40),
    (180, 80, 220),
    (240, 240, 240),
    (40, 40, 40),
    (250, 120, 180),
]


def _screen_app(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """What a lit screen shows: a home screen of app tiles or a list of text."""
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    top, bottom = rng.integers(0, 200, 3), rng.integers(0, 200, 3)
    img[:] = np.linspace(top, bottom, h)[:, None, :].astype(np.uint8)
    s = PX_PER_MM
    if rng.random() < 0.5:
        cols, gap = 4, w / 4
        for r in range(int(rng.integers(3, 6))):
            for c in range(cols):
                x, y = int(c * gap + gap * 0.18), int(20 * s + r * gap * 1.2)
                colour = tuple(int(v) for v in TILE_COLOURS[int(rng.integers(len(TILE_COLOURS)))])
                cv2.rectangle(
                    img, (x, y), (x + int(gap * 0.64), y + int(gap * 0.64)), colour, -1, cv2.LINE_AA
                )
    else:
        img[int(12 * s) :] = (250, 250, 250) if rng.random() < 0.6 else (28, 28, 32)
        fg = (60, 60, 60) if img[-1, 0, 0] > 128 else (220, 220, 220)
        for r in range(int(rng.integers(6, 14))):
            y = int((16 + r * 9) * s)
            cv2.putText(
                img,
                "".join(rng.choice(list("abcdefghij klmnop"), 12)),
                (int(3 * s), y),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.1 * s,
                fg,
                1,
                cv2.LINE_AA,
            )
    cv2.putText(
        img,
        f"{rng.integers(1, 13)}:{rng.integers(0, 60):02d}",
        (int(4 * s), int(4 * s)),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.07 * s,
        (240, 240, 240),
        1,
        cv2.LINE_AA,
    )
    return img


def render_phone(rng: np.random.Generator) -> Prop:
    w_mm, h_mm = float(rng.uniform(68, 78)), float(rng.uniform(140, 162))
    r_mm = float(rng.uniform(7, 12))
    size = blank((w_mm, h_mm))
    body = mask(size, rounded_rect(0.3, 0.3, w_mm - 0.3, h_mm - 0.3, r_mm))
    layers = Layers(size)
    face_up = rng.random() < 0.55
    frame = np.asarray(
        [(60, 60, 64), (200, 200, 204), (180, 160, 130), (30, 30, 34)][rng.integers(4)]
    )
    layers.paint(body, frame)
    inset = float(rng.uniform(1.0, 2.5))
    inner = mask(size, rounded_rect(inset, inset, w_mm - inset, h_mm - inset, r_mm - inset))
    if face_up:
        screen = np.full((*body.shape, 3), 8.0, np.float32)
        if rng.random() < 0.5:
            screen = _screen_app(rng, size).astype(np.float32) * rng.uniform(0.6, 1.0)
        layers.paint(inner, screen)
        hole = mask(size, ellipse((w_mm / 2, 5.5), (1.6, 1.6)))
        layers.paint(hole, (5, 5, 8))
    else:
        back = np.asarray(BACKS[int(rng.integers(len(BACKS)))], np.float32)
        layers.paint(inner, back)
        bump_w = float(rng.uniform(22, 38))
        bump = mask(size, rounded_rect(5, 5, 5 + bump_w, 5 + bump_w * rng.uniform(0.9, 1.3), 6))
        layers.paint(bump, back * 0.8 + 10)
        lenses = [
            (5 + bump_w * 0.3, 5 + bump_w * 0.3),
            (5 + bump_w * 0.3, 5 + bump_w * 0.75),
            (5 + bump_w * 0.75, 5 + bump_w * 0.5),
        ][: int(rng.integers(1, 4))]
        for c in lenses:
            layers.paint(mask(size, ellipse(c, (bump_w * 0.17, bump_w * 0.17))), (60, 60, 64))
            layers.paint(mask(size, ellipse(c, (bump_w * 0.12, bump_w * 0.12))), (10, 10, 16))
            layers.paint(
                mask(size, ellipse((c[0] - 1, c[1] - 1), (1.0, 1.0))) * 0.6, (160, 170, 220)
            )
        layers.paint(
            mask(size, ellipse((5 + bump_w * 0.75, 5 + bump_w * 0.15), (1.5, 1.5))), (230, 220, 170)
        )
    diffuse, spec = lighting(relief(body, 2.5), 2.5, gloss=0.5)
    h, w = body.shape
    # A soft diagonal band: the room reflected in the glass.
    x = np.arange(w, dtype=np.float32)[None, :] / w
    y = np.arange(h, dtype=np.float32)[:, None] / h
    band = np.exp(-(((x * 0.6 + y - rng.uniform(0.2, 0.9)) / rng.uniform(0.08, 0.25)) ** 2))
    glare = band * rng.uniform(0.05, 0.2) * inner
    layers.shade(diffuse * (1 + grain(rng, size, 1.0) * 0.01), spec + glare)
    return Prop("phone", layers.rgba(), (w_mm, h_mm), extra={"face_up": face_up})

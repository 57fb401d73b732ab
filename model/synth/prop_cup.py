"""A cup of coffee or tea on its saucer, or a mug, seen from straight above."""

from __future__ import annotations

import numpy as np

from model.synth.prop_draw import (
    Layers,
    blank,
    ellipse,
    grain,
    lighting,
    mask,
    radial,
    relief,
    tapered,
)
from model.synth.types import Prop

CHINA = [
    (244, 242, 236),
    (250, 250, 248),
    (232, 226, 210),
    (200, 220, 230),
    (40, 40, 44),
    (170, 40, 40),
    (60, 110, 160),
    (230, 200, 120),
]
DRINKS = {
    "coffee": ((70, 40, 22), (150, 100, 60)),  # body, crema or milk at the rim
    "latte": ((170, 120, 80), (220, 190, 150)),
    "black": ((30, 18, 10), (60, 36, 20)),
    "tea": ((130, 60, 20), (170, 90, 35)),
    "empty": ((0, 0, 0), (0, 0, 0)),
}


def render_cup(rng: np.random.Generator) -> Prop:
    saucer = rng.random() < 0.6
    cup_r = float(rng.uniform(38, 46)) if saucer else float(rng.uniform(40, 50))
    side = (
        float(rng.uniform(130, 150)) if saucer else 2 * cup_r + 2 * float(rng.uniform(20, 26)) + 4
    )
    size = blank((side, side))
    c = (side / 2, side / 2)
    if not saucer:  # keep the mug inside its canvas with its handle
        c = (cup_r + 2, side / 2)
    layers = Layers(size)
    china = np.asarray(CHINA[int(rng.integers(len(CHINA)))], np.float32)
    if saucer:
        plate = mask(size, ellipse(c, (side / 2 - 0.5, side / 2 - 0.5)))
        layers.paint(plate, china)
        well = radial(size, c, cup_r + 12)
        ring = np.exp(-(((well - 1.0) / 0.08) ** 2)) * 0.12  # the raised foot ring of the well
        height = relief(plate, 10) * 0.6 + ring
        diffuse, spec = lighting(height, 1.2, gloss=0.3)
        layers.shade(diffuse, spec)
    angle = float(rng.uniform(0, 2 * np.pi))
    if saucer:
        hx, hy = c[0] + (cup_r + 11) * np.cos(angle), c[1] + (cup_r + 11) * np.sin(angle)
    else:
        angle = 0.0
        hx, hy = c[0] + cup_r + 12, c[1]
    handle = mask(
        size,
        tapered(
            (c[0] + (cup_r - 4) * np.cos(angle), c[1] + (cup_r - 4) * np.sin(angle)),
            (hx, hy),
            5.5,
            4.5,
        ),
    )
    cup = mask(size, ellipse(c, (cup_r, cup_r)))
    body = np.maximum(handle, cup)
    cup_colour = china if rng.random() < 0.7 else np.asarray(CHINA[int(rng.integers(len(CHINA)))])
    layers.paint(body, cup_colour)
    d = radial(size, c, cup_r)
    lip = float(rng.uniform(2.5, 4.5)) / cup_r
    inside = np.clip((1 - lip - d) * 60, 0, 1)
    # Inside wall: darker towards the bottom, lit on the far side from the lamp.
    wall = np.clip(0.55 + 0.45 * d, 0, 1)
    layers.paint(inside, cup_colour * wall[..., None])
    drink = str(rng.choice(list(DRINKS), p=[0.3, 0.2, 0.15, 0.25, 0.1]))
    if drink != "empty":
        body_c, rim_c = (np.asarray(v, np.float32) for v in DRINKS[drink])
        level = float(rng.uniform(0.72, 0.9)) * (1 - lip)
        liquid = np.clip((level - d) * 80, 0, 1)
        t = np.clip((d / level - 0.75) / 0.25, 0, 1)[..., None]
        swirl = 1 + grain(rng, size, 10.0)[..., None] * 0.03
        layers.paint(liquid, (body_c * (1 - t) + rim_c * t) * swirl)
        hl = np.exp(-(radial(size, (c[0] - 0.35 * cup_r, c[1] - 0.4 * cup_r), cup_r * 0.18) ** 2))
        layers.rgb += (hl * liquid * rng.uniform(90, 180))[..., None]
    height = relief(body, 3)
    diffuse, spec = lighting(height, 3, gloss=0.8)
    layers.shade(np.where(body > 0.01, diffuse, 1.0), spec * body)
    return Prop("cup", layers.rgba(), (side, side), extra={"saucer": saucer, "drink": drink})

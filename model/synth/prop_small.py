"""Small table clutter: a pen or pencil, a coaster, a glasses case, a bowl of snacks, dice."""

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
    radial,
    relief,
    rounded_rect,
)
from model.synth.surface_noise import smooth_noise
from model.synth.surface_wood import SPECIES, wood_canvas
from model.synth.types import Prop

BARRELS = [
    (30, 60, 160),
    (20, 20, 24),
    (200, 30, 30),
    (240, 240, 236),
    (40, 120, 70),
    (150, 150, 156),
    (250, 200, 30),
]


def render_pen(rng: np.random.Generator) -> Prop:
    """A ballpoint pen or a pencil, lying along x, lit as a cylinder."""
    pencil = rng.random() < 0.35
    length = float(rng.uniform(130, 175))
    r = float(rng.uniform(3.5, 5.0))
    size = blank((length, 2 * r + 4))
    w, h = size
    cy = h / 2 / PX_PER_MM
    tip = float(rng.uniform(12, 20))
    outline = np.array(
        [
            [0.5, cy - 0.4],
            [tip, cy - r],
            [length - 1.5, cy - r],
            [length - 0.3, cy - r + 1.5],
            [length - 0.3, cy + r - 1.5],
            [length - 1.5, cy + r],
            [tip, cy + r],
            [0.5, cy + 0.4],
        ]
    )
    body = mask(size, polygon(outline))
    xs = np.arange(w, dtype=np.float32) / PX_PER_MM
    barrel = np.asarray(BARRELS[int(rng.integers(len(BARRELS)))], np.float32)
    if pencil:
        barrel = np.asarray(
            [(240, 190, 30), (30, 80, 50), (200, 40, 40)][rng.integers(3)], np.float32
        )
        wood = np.asarray((226, 190, 140), np.float32)
        lead = np.asarray((50, 50, 55), np.float32)
        colour = np.where((xs < tip)[:, None], wood, barrel)
        colour = np.where((xs < 3.5)[:, None], lead, colour)
        colour = np.where(
            (xs > length - 12)[:, None], np.asarray((230, 140, 150), np.float32), colour
        )
        colour = np.where(
            ((xs > length - 18) & (xs <= length - 12))[:, None],
            np.asarray((200, 200, 190), np.float32),
            colour,
        )
    else:
        cap = float(rng.uniform(45, 60))
        metal = np.asarray((190, 190, 196), np.float32)
        colour = np.where((xs < tip)[:, None], barrel * 0.9, barrel)
        colour = np.where((xs < 2.5)[:, None], metal, colour)
        colour = np.where((xs > length - cap)[:, None], barrel * 0.8, colour)
    img = np.broadcast_to(colour[None], (h, w, 3)).copy()
    # Across the barrel a cylinder: dark at the sides, a bright streak towards the light.
    y = (np.arange(h, dtype=np.float32) / PX_PER_MM - cy) / r
    across = np.sqrt(np.clip(1 - y * y, 0, 1))
    lit = (0.45 + 0.65 * np.clip(across - 0.35 * y, 0, 1.2))[:, None, None]
    streak = (np.exp(-(((y + 0.35) / 0.15) ** 2)) * rng.uniform(60, 120))[:, None, None]
    layers = Layers(size)
    layers.paint(body, img * lit + streak)
    if not pencil:
        clip = mask(
            size, rounded_rect(length - cap + 8, cy - r - 0.8, length - 4, cy - r + 2.2, 1.2)
        )
        layers.paint(clip, (205, 205, 210))
    return Prop("pen", layers.rgba(), (w / PX_PER_MM, h / PX_PER_MM), extra={"pencil": pencil})


def render_coaster(rng: np.random.Generator) -> Prop:
    """A round or square coaster: cork, wood, or a printed cardboard beer mat."""
    side = float(rng.uniform(90, 110))
    size = blank((side, side))
    w, h = size
    round_ = rng.random() < 0.55
    shape = (
        ellipse((side / 2, side / 2), (side / 2 - 0.5, side / 2 - 0.5))
        if round_
        else rounded_rect(0.5, 0.5, side - 0.5, side - 0.5, float(rng.uniform(2, 10)))
    )
    body = mask(size, shape)
    material = str(rng.choice(["cork", "wood", "printed"]))
    if material == "cork":
        t = grain(rng, size, 1.2) * 0.6 + smooth_noise(rng, size, 6.0) * 0.4
        base = np.asarray((196, 150, 100), np.float32) * rng.uniform(0.85, 1.05)
        face = base * (1 + t[..., None] * 0.12)
    elif material == "wood":
        sp = SPECIES[str(rng.choice(list(SPECIES)))]
        face = wood_canvas(rng, size, PX_PER_MM * 0.8, sp).astype(np.float32)
    else:
        face = np.empty((h, w, 3), np.float32)
        face[:] = (245, 242, 235)
        d = radial(size, (side / 2, side / 2), side / 2)
        ink = np.asarray(BARRELS[int(rng.integers(len(BARRELS)))], np.float32)
        ring = ((d > 0.55) & (d < 0.75)).astype(np.float32)
        ring = cv2.GaussianBlur(ring, (0, 0), 1.0)
        face = face * (1 - ring[..., None]) + ink * ring[..., None]
        word = "".join(rng.choice(list("ABCDEFGHKLMNOPRSTUW"), int(rng.integers(4, 7))))
        (tw, _), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, 1.0, 2)
        scale = 0.7 * w / max(tw, 1) * 0.8
        text = np.zeros((h, w), np.uint8)
        cv2.putText(
            text,
            word,
            (int(w * 0.22), int(h * 0.55)),
            cv2.FONT_HERSHEY_DUPLEX,
            scale,
            255,
            max(int(PX_PER_MM * 0.8), 1),
            cv2.LINE_AA,
        )
        t = text.astype(np.float32)[..., None] / 255.0
        face = face * (1 - t) + ink * t
    layers = Layers(size)
    layers.paint(body, face)
    if rng.random() < 0.35:  # a wet ring left by a glass
        d = radial(size, (side / 2 + rng.normal(0, 6), side / 2 + rng.normal(0, 6)), 33)
        stain = np.exp(-(((d - 1) / 0.05) ** 2)) * 0.25 * body
        layers.rgb *= (1 - stain)[..., None]
    diffuse, _spec = lighting(relief(body, 1.5), 1.5)
    layers.shade(np.where(body > 0.01, diffuse, 1.0))
    return Prop("coaster", layers.rgba(), (side, side), extra={"material": material})


def render_glasses_case(rng: np.random.Generator) -> Prop:
    """A hard clamshell glasses case: a rounded bar with a seam along its side."""
    w_mm, h_mm = float(rng.uniform(150, 165)), float(rng.uniform(55, 68))
    size = blank((w_mm, h_mm))
    r = h_mm * rng.uniform(0.35, 0.5)
    body = mask(size, rounded_rect(0.5, 0.5, w_mm - 0.5, h_mm - 0.5, r))
    colour = np.asarray(
        [
            (30, 30, 34),
            (90, 50, 30),
            (140, 30, 40),
            (30, 50, 100),
            (180, 170, 150),
            (200, 120, 150),
        ][rng.integers(6)],
        np.float32,
    )
    leather = 1 + grain(rng, size, 1.0)[..., None] * 0.05
    layers = Layers(size)
    layers.paint(body, colour * leather)
    seam_y = float(rng.uniform(0.55, 0.7)) * h_mm
    seam = mask(size, rounded_rect(3, seam_y - 0.4, w_mm - 3, seam_y + 0.4, 0.3))
    layers.paint(seam * 0.8, colour * 0.35)
    height = relief(body, h_mm * 0.45)
    diffuse, spec = lighting(height, h_mm * 0.35, gloss=0.35)
    layers.shade(np.where(body > 0.01, diffuse, 1.0), spec * body)
    return Prop("glasses-case", layers.rgba(), (w_mm, h_mm))


SNACKS = {
    "nuts": [(170, 110, 60), (150, 90, 50), (200, 150, 90)],
    "crisps": [(230, 190, 90), (220, 170, 70), (240, 210, 120)],
    "pretzels": [(150, 80, 30), (130, 70, 25)],
    "sweets": [(220, 40, 50), (60, 150, 220), (250, 200, 40), (80, 180, 80), (240, 120, 30)],
}


def render_snack_bowl(rng: np.random.Generator) -> Prop:
    """A round bowl, seen from above, full of nuts, crisps, pretzels or sweets."""
    d_mm = float(rng.uniform(110, 160))
    size = blank((d_mm, d_mm))
    c = (d_mm / 2, d_mm / 2)
    bowl = mask(size, ellipse(c, (d_mm / 2 - 0.5, d_mm / 2 - 0.5)))
    glaze = np.asarray(
        [
            (240, 238, 232),
            (60, 90, 140),
            (180, 60, 40),
            (40, 40, 44),
            (200, 180, 140),
            (120, 160, 120),
        ][rng.integers(6)],
        np.float32,
    )
    layers = Layers(size)
    d = radial(size, c, d_mm / 2)
    wall = np.clip(1.05 - 0.4 * np.clip(1 - d, 0, 1) + 0.15 * (d > 0.86), 0, 1.2)
    layers.paint(bowl, glaze * wall[..., None])
    kind = str(rng.choice(list(SNACKS)))
    pile = np.zeros(bowl.shape, np.uint8)
    tint = np.zeros((*bowl.shape, 3), np.float32)
    s = PX_PER_MM
    n = int(d_mm * d_mm / (90 if kind == "crisps" else 45))
    for _ in range(n):
        rr = np.sqrt(rng.random()) * (d_mm / 2 - 9)
        a = rng.uniform(0, 2 * np.pi)
        p = (int((c[0] + rr * np.cos(a)) * s), int((c[1] + rr * np.sin(a)) * s))
        colour = SNACKS[kind][int(rng.integers(len(SNACKS[kind])))]
        axes = (int(rng.uniform(5, 9) * s), int(rng.uniform(3.5, 6) * s))
        if kind == "crisps":
            axes = (int(rng.uniform(8, 13) * s), int(rng.uniform(6, 10) * s))
        angle = float(rng.uniform(0, 180))
        shade = tuple(float(v) for v in np.asarray(colour) * rng.uniform(0.85, 1.1))
        edge = tuple(v * 0.6 for v in shade)
        thick = max(int(2 * s), 1) if kind == "pretzels" else -1
        cv2.ellipse(pile, p, axes, angle, 0, 360, 255, thick, cv2.LINE_AA)
        cv2.ellipse(tint, p, axes, angle, 0, 360, shade, thick, cv2.LINE_AA)
        if kind != "pretzels":  # the rim of each piece, so the pieces read as separate
            cv2.ellipse(tint, p, axes, angle, 0, 360, edge, 1, cv2.LINE_AA)
    heap = pile.astype(np.float32) / 255.0
    layers.paint(heap * bowl, tint)
    height = relief(bowl, 6) * 0.5 + relief(heap, 3.0) * 0.6
    diffuse, spec = lighting(height, 8, gloss=0.5)
    layers.shade(np.where(bowl > 0.01, diffuse, 1.0), spec * bowl)
    return Prop("snack-bowl", layers.rgba(), (d_mm, d_mm), extra={"snack": kind})


PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def render_dice(rng: np.random.Generator) -> Prop:
    """Two or three dice thrown close together."""
    n = int(rng.integers(2, 4))
    side = float(rng.uniform(14, 19))
    w_mm, h_mm = side * (n + 1.5), side * 2.6
    size = blank((w_mm, h_mm))
    body_c, pip_c = [
        ((245, 245, 240), (20, 20, 20)),
        ((200, 30, 30), (250, 250, 250)),
        ((30, 30, 30), (250, 250, 250)),
        ((240, 240, 240), (200, 30, 30)),
    ][rng.integers(4)]
    layers = Layers(size)
    height = np.zeros(layers.alpha.shape, np.float32)
    for i in range(n):
        cx = side * (0.9 + i * 1.25) + rng.uniform(-1, 1)
        cy = h_mm / 2 + rng.uniform(-0.5, 0.5) * side
        a = rng.uniform(0, np.pi / 2)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2 * 0.82
        die = mask(size, polygon(corners @ rot.T + (cx, cy)))
        die = cv2.GaussianBlur(die, (0, 0), side * 0.07 * PX_PER_MM)
        die = np.clip((die - 0.5) * 3 + 0.5, 0, 1)
        layers.paint(die, body_c)
        height = np.maximum(height, relief(die, side * 0.2))
        for px, py in PIPS[int(rng.integers(1, 7))]:
            q = np.array([px, py]) * side * 0.27 @ rot.T + (cx, cy)
            layers.paint(mask(size, ellipse(q, (side * 0.09, side * 0.09))) * die, pip_c)
    diffuse, spec = lighting(height, side * 0.3, gloss=0.4)
    layers.shade(np.where(layers.alpha > 0.01, diffuse, 1.0), spec * layers.alpha)
    return Prop("dice", layers.rgba(), (w_mm, h_mm))

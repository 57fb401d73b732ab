"""What else lies on a card table: face-down feet and stock, the special deck's rules and hint
cards, and props (score pad, phone, cup, pen…), plus hands reaching in from the frame's edge."""

from __future__ import annotations

import numpy as np

from model.synth.layout import Layout, ObjectSpot, rotation
from model.synth.types import CardStyle

ABOVE_PROPS = ("cup",)
BACK_VARIANTS = 3
NONPLAYING = {"standard": ("ad", "score-card"), "special": ("rules", "hint", "promo")}
NONPLAYING_VARIANTS = 2


def plan_clutter(
    rng: np.random.Generator,
    layout: Layout,
    area: np.ndarray,
    frame_edges_mm: list[tuple[np.ndarray, np.ndarray]],
    styles: list[CardStyle],
    prop_kinds: tuple[str, ...],
) -> None:
    """Add piles and props to ``layout``. ``frame_edges_mm`` gives, for each side of the frame,
    a point on it and the outward direction, both on the table, so hands can reach in."""
    lo, hi = area.min(axis=0), area.max(axis=0)
    if rng.random() < 0.45:  # a foot or the stock, face down, squared roughly
        for _ in range(int(rng.integers(1, 3))):
            _pile(rng, layout, rng.uniform(lo, hi), styles)
    if rng.random() < 0.18:
        style = styles[rng.integers(len(styles))]
        kinds = NONPLAYING[style.deck]
        layout.objects_below.append(
            ObjectSpot(
                "nonplaying:" + kinds[rng.integers(len(kinds))],
                style,
                rng.uniform(lo, hi),
                rng.uniform(0, 360),
                variant=int(rng.integers(0, NONPLAYING_VARIANTS)),
            )
        )
    for kind in prop_kinds:
        chance = 0.2 if kind in ("score-pad", "cup", "pen") else 0.08
        if kind == "hand" or rng.random() >= chance:
            continue
        spot = ObjectSpot(kind, None, rng.uniform(lo, hi), rng.uniform(0, 360))
        (
            layout.objects_above
            if kind in ABOVE_PROPS or rng.random() < 0.3
            else layout.objects_below
        ).append(spot)
    if "hand" in prop_kinds and frame_edges_mm and rng.random() < 0.25:
        for _ in range(int(rng.integers(1, 3))):
            point, outward = frame_edges_mm[rng.integers(len(frame_edges_mm))]
            # The wrist lies outside the frame; the fingers reach in, towards the table's middle.
            angle = np.degrees(np.arctan2(outward[0], -outward[1])) + rng.normal(0, 20)
            centre = point + outward * rng.uniform(-30, 40)
            layout.objects_above.append(
                ObjectSpot(
                    "hand", None, centre, angle, variant=int(rng.integers(1 << 30)), edge=True
                )
            )


def _pile(rng: np.random.Generator, layout: Layout, centre: np.ndarray, styles) -> None:
    style = styles[rng.integers(len(styles))]
    angle = rng.uniform(0, 360)
    variant = int(rng.integers(0, BACK_VARIANTS))
    for _ in range(int(rng.integers(3, 12))):
        jitter = rotation(angle) @ rng.normal(0, 1.2, 2)
        layout.objects_below.append(
            ObjectSpot("back", style, centre + jitter, angle + rng.normal(0, 2.5), variant=variant)
        )

"""What else lies on a card table: face-down feet and stock, the special deck's rules and hint
cards, and props (score pad, phone, cup, pen…), plus hands reaching in from the frame's edge."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from model.synth.layout import (
    Layout,
    ObjectSpot,
    _box,
    _occupied,
    card_outlines,
    card_size_mm,
    rotation,
)
from model.synth.types import CardStyle

ABOVE_PROPS = ("cup",)
TIDY_PROPS = ("score-pad", "pen", "phone", "cup", "coaster", "dice", "glasses-case")
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
        chance = 0.2 if kind in ("score-pad", "printed-page", "cup", "pen") else 0.08
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


def plan_tidy_clutter(
    rng: np.random.Generator,
    layout: Layout,
    area: np.ndarray,
    styles: list[CardStyle],
    reach_mm: Callable[[str], float],
) -> None:
    """A few things beside a tidy layout, never on its cards: sometimes a face-down foot or
    the stock, and up to two of ``TIDY_PROPS``, each where it touches no card. ``area`` is the
    table quad the frame shows (grown a little: things may leave the frame); ``reach_mm(kind)``
    is how far a prop may reach from its centre, turned any way."""
    lo, hi = area.min(axis=0), area.max(axis=0)
    taken = card_outlines(layout)
    wanted: list[tuple[str, float]] = []
    if rng.random() < 0.25:
        style = styles[rng.integers(len(styles))]
        wanted.append(("back", 0.5 * float(np.hypot(*card_size_mm(style))) + 4))
    for kind in TIDY_PROPS:
        if rng.random() < 0.1 and len(wanted) < 3:
            wanted.append((kind, reach_mm(kind) + 5))
    for kind, reach in wanted:
        for _ in range(12):  # a few tries to find a clear spot
            centre = rng.uniform(lo, hi)
            square = _box(centre, np.array([2 * reach, 2 * reach]), 0.0)
            if not _occupied(taken, square):
                break
        else:
            continue
        taken.append(square)
        if kind == "back":
            _pile(rng, layout, centre, styles)
        else:
            layout.objects_below.append(ObjectSpot(kind, None, centre, rng.uniform(0, 360)))

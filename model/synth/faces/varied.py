"""Varied designs: decks drawn at random within the bounds printed decks keep, for training only.

The named designs are a few dozen points in the space of decks; on busy validation scenes most
of the errors on large, sharp indices were on the held-out designs (a jumbo gothic, a condensed
serif, a palatino) and on decks whose index sits closer to its neighbour's than any training
design's. Each varied design draws every drawing detail independently: typeface (any of the
training typefaces, and monospaced, light and regular weights no named design uses), rank and
pip sizes, their layout and gap, margins, squeeze, inks, paper, border, suits and court art, so
no two details always come together. They never use what the held-out designs are made of: their
typefaces or families (URW Gothic, P052, DejaVu Serif Condensed, FreeSans), the "deco" suits or
the "diagonal" court art.

A few more standard designs (``GAPPED_COUNT``, drawn from a seed of their own so the others stay
as they were drawn) stack the suit sign far under the rank, a quarter to two thirds of the rank's
height: many printed decks leave such a gap, where the other designs leave at most a quarter.

The designs are drawn once from a fixed seed, so a scene's labels name a design that can be drawn
again (``varied-standard-07``), and the renderer's caches serve a bounded set of faces.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..types import CardStyle
from .design import BRIGHT, CREAM, IVORY, WHITE, Design

SEED = 20261202
STANDARD_COUNT = 24
SPECIAL_COUNT = 16
GAPPED_SEED = 20261204
GAPPED_COUNT = 8
GAPPED_SHARE = (0.25, 0.67)  # the gap under the rank, as a share of the rank's height

# Index typefaces of the training designs, and weights and families no named design prints its
# index in (none of them a held-out design's family).
TYPEFACES = (
    "DejaVu Sans Bold", "DejaVu Sans Condensed Bold", "DejaVu Serif Bold", "DejaVu Serif",
    "Liberation Sans Bold", "Liberation Serif Bold", "Liberation Serif", "Liberation Sans",
    "Nimbus Sans Bold", "Nimbus Sans Narrow Bold", "Nimbus Roman Bold", "URW Bookman Demi",
    "C059 Bold", "Free Serif Bold", "Vector Sans", "Vector Serif",
    "DejaVu Sans Mono Bold", "Liberation Mono Bold", "Nimbus Mono PS Bold", "Free Mono Bold",
    "Nimbus Sans", "Nimbus Roman", "C059 Roman", "URW Bookman Light", "Nimbus Sans Narrow",
    "DejaVu Sans Condensed", "Free Serif",
)  # fmt: skip
HELD_OUT_FAMILIES = ("URW Gothic", "P052", "DejaVu Serif Condensed", "Free Sans")
REDS = ((206, 28, 40), (190, 20, 30), (226, 74, 98), (218, 42, 60), (176, 30, 48), (236, 96, 120))
BLACKS = ((24, 24, 28), (48, 54, 70), (30, 32, 62), (16, 16, 16), (62, 70, 92), (40, 36, 34))
STOCKS = (WHITE, BRIGHT, CREAM, IVORY)
BACKS = ("lattice", "rings", "dots", "checker", "logo")
JOKER_ART = ("jester", "star", "text")
JOKER_INDEX = ("vertical", "star", "vertical-star")


def _pick(rng: np.random.Generator, options):
    return options[int(rng.integers(len(options)))]


def _common(rng: np.random.Generator) -> dict:
    """The paper, print and border of any deck."""
    border = _pick(rng, ("none", "none", "line", "double"))
    return dict(
        stock=_pick(rng, STOCKS),
        mottle=float(rng.uniform(1.5, 4.0)),
        grain=float(rng.uniform(2.0, 4.0)),
        radius=int(rng.integers(9, 19)),
        border=border,
        border_inset=int(rng.integers(4, 8)),
        border_color=_pick(rng, ((60, 60, 70), (170, 30, 40), (40, 60, 120))),
        weight=float(rng.uniform(0.95, 1.15)),
        # down to 0.6: the commonest bridge-size decks print tall, narrow indices (a Queen's
        # bowl half as wide as it is tall), narrower than any named design's
        x_scale=float(rng.uniform(0.6, 1.15)),
        margin=(int(rng.integers(6, 12)), int(rng.integers(7, 14))),
        text_face=_pick(rng, ("DejaVu Sans", "DejaVu Serif", "Liberation Serif")),
    )


def _style(rng: np.random.Generator, deck: str, k: int, jumbo: bool) -> CardStyle:
    typeface = _pick(rng, TYPEFACES)
    glossy = float(rng.uniform(0.1, 0.9))
    width = _pick(rng, (224, 250))
    return CardStyle(f"varied-{deck}-{k:02d}", deck, "train", typeface, jumbo, glossy, width)


def _standard(rng: np.random.Generator, k: int) -> tuple[CardStyle, Design]:
    jumbo = bool(rng.random() < 0.3)
    backs = tuple(rng.choice(BACKS, size=int(rng.integers(2, 4)), replace=False).tolist())
    design = Design(
        **_common(rng),
        red=_pick(rng, REDS),
        black=_pick(rng, BLACKS),
        suits=_pick(rng, ("classic", "rounded", "narrow", "angular")),
        rank_cap=int(rng.integers(42, 59) if jumbo else rng.integers(24, 37)),
        suit_h=int(rng.integers(24, 35) if jumbo else rng.integers(15, 24)),
        layout=_pick(rng, ("stack", "stack", "stack-left", "beside")),
        gap=int(rng.integers(1, 8)),
        ten_tracking=float(rng.uniform(-0.05, 0.04)),
        pips=_pick(rng, ("compact", "big-center") if jumbo else ("classic", "compact")),
        pip_h=int(rng.integers(32, 43)),
        ace=_pick(rng, ("plain", "ornate")),
        court=_pick(rng, ("classic", "modern")),
        palette=_pick(rng, ("classic", "warm", "pastel", "bright")),
        jokers=(_pick(rng, JOKER_ART), _pick(rng, JOKER_ART)),
        joker_index=(_pick(rng, JOKER_INDEX), _pick(rng, JOKER_INDEX)),
        backs=backs,
    )
    return _style(rng, "standard", k, jumbo), design


def _special(rng: np.random.Generator, k: int) -> tuple[CardStyle, Design]:
    jumbo = bool(rng.random() < 0.35)
    design = Design(
        **_common(rng),
        rank_cap=int(rng.integers(40, 49) if jumbo else rng.integers(26, 35)),
        colours=_pick(rng, ("rainbow", "duo", "mono")),
        word_corner=_pick(rng, ("abbr", "word", "vertical")),
        underline69=bool(rng.random() < 0.5),
        centre=_pick(rng, ("ring", "plain", "band")),
        backs=(_pick(rng, ("lattice", "rings", "dots", "checker")), "logo"),
    )
    return _style(rng, "special", k, jumbo), design


def _gapped(rng: np.random.Generator, k: int) -> tuple[CardStyle, Design]:
    """A standard design whose suit sign stands far under its rank."""
    style, design = _standard(rng, k)
    gap = round(float(rng.uniform(*GAPPED_SHARE)) * design.rank_cap)
    layout = "stack-left" if design.layout == "stack-left" else "stack"
    return style, dataclasses.replace(design, gap=gap, layout=layout)


def varied_table(
    standard: int = STANDARD_COUNT,
    special: int = SPECIAL_COUNT,
    seed: int = SEED,
    gapped: int = GAPPED_COUNT,
) -> list[tuple[CardStyle, Design]]:
    """``standard`` and ``special`` varied designs, the same for the same seed, then ``gapped``
    ones, always drawn from ``GAPPED_SEED``."""
    rng = np.random.default_rng(seed)
    table = [_standard(rng, k) for k in range(standard)]
    table += [_special(rng, k) for k in range(special)]
    rng = np.random.default_rng(GAPPED_SEED)
    return table + [_gapped(rng, standard + k) for k in range(gapped)]

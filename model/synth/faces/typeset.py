"""Designs printed in the typefaces the font packages offer (:mod:`.typefaces`): decks by other
hands.

Each discovered typeface gets one standard and one special design, drawn like the varied designs
(:mod:`.varied`: sizes, layout, inks, paper, suits, court art) from a seed of the typeface's own
name, so a design stays as it was drawn whatever else is installed. The special designs also
spread what nobody here knows of the printed special deck: words in capitals or in mixed case
("Lord", "Lo"), inks drawn per design (one for every rank, two in turn, or one per rank), and
the index in one corner or two. A design's split is its typeface's: test scenes draw held-out
families only.

Scenes draw them with ``typefaces=SHARE`` (``handfoot synth --typefaces``), as they draw the
printed decks with ``art``.
"""

from __future__ import annotations

import colorsys
import functools
import re
from dataclasses import replace

import numpy as np

from ..types import CardStyle
from .design import Design
from .draw import Color, seed_of
from .typefaces import Typeface, discovered
from .varied import _special, _standard

PREFIX = "type-"
SEED = 20261207
TITLE_SHARE = 0.5  # special designs printing their words in mixed case
ONE_CORNER_SHARE = 0.25  # special designs printing one index only, top left


def _slug(face: Typeface) -> str:
    stem = face.name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")


def _ink(rng: np.random.Generator, dark: bool) -> Color:
    """A print colour a deck might use: any hue, deep enough to read on paper."""
    hue = float(rng.uniform(0, 1))
    sat = float(rng.uniform(0.55, 1.0))
    val = float(rng.uniform(0.25, 0.45) if dark else rng.uniform(0.5, 0.8))
    r, g, b = colorsys.hsv_to_rgb(hue, sat, val)
    return (round(r * 255), round(g * 255), round(b * 255))


def _hues(rng: np.random.Generator) -> tuple[Color, ...]:
    count = int(rng.choice([1, 2, 2, 4, 17]))  # one ink, two in turn, a few, one per rank
    return tuple(_ink(rng, dark=bool(rng.random() < 0.5)) for _ in range(count))


def _design(face: Typeface, deck: str) -> tuple[CardStyle, Design]:
    rng = np.random.default_rng(np.random.SeedSequence([SEED, seed_of(face.name, deck)]))
    style, design = (_standard if deck == "standard" else _special)(rng, 0)
    name = f"{PREFIX}{deck}-{_slug(face)}"
    style = replace(style, name=name, split=face.split, typeface=face.name)
    if deck == "special":
        design = replace(
            design,
            colours="drawn" if rng.random() < 0.5 else design.colours,
            hues=_hues(rng),
            word_case="title" if rng.random() < TITLE_SHARE else "upper",
            corners=1 if rng.random() < ONE_CORNER_SHARE else 2,
        )
    return style, design


@functools.cache
def table() -> dict[str, tuple[CardStyle, Design]]:
    """Every typeset design here, by style name. A font installed twice (a package's TrueType
    and OpenType files of one face) has one name, and one design."""
    out = {}
    for face in discovered():
        for deck in ("standard", "special"):
            style, design = _design(face, deck)
            out.setdefault(style.name, (style, design))
    return out


def styles_for(split: str, deck: str) -> tuple[CardStyle, ...]:
    return tuple(s for s, _ in table().values() if s.split == split and s.deck == deck)


def typeset_style(name: str) -> CardStyle | None:
    entry = table().get(name)
    return entry[0] if entry else None


def typeset_design(style: CardStyle) -> Design | None:
    entry = table().get(style.name)
    return entry[1] if entry else None

"""The public renderers: faces, backs and non-playing cards, cached and deterministic."""

from __future__ import annotations

import functools

from ..types import FACE_HEIGHT, CardStyle, Face
from .backs import draw_back
from .draw import finish, grain
from .nonplaying import ALL_KINDS, draw_nonplaying
from .special import NUMBERS, WORDS, special_face
from .standard import RANKS, SUITS, standard_face
from .styles import design_of

CARD_NAMES: dict[str, tuple[str, ...]] = {
    "standard": (*(r + s for r in RANKS for s in SUITS), "JK", "JK2"),
    "special": (*NUMBERS, *WORDS),
}


def code_of(name: str) -> str:
    """The RULES.md §6 token of a card name: colour instead of suit.

    >>> code_of("KH"), code_of("10S"), code_of("JK2"), code_of("LORD")
    ('KR', '10B', 'JK', 'LORD')
    """
    if name in ("JK", "JK2"):
        return "JK"
    if name in CARD_NAMES["special"]:
        return name
    if name in CARD_NAMES["standard"]:
        return name[:-1] + ("R" if name[-1] in "HD" else "B")
    raise ValueError(f"{name!r} is not a card name of either deck")


def _frozen(face: Face) -> Face:
    face.rgba.setflags(write=False)
    return face


@functools.lru_cache(maxsize=1024)
def render_face(style: CardStyle, name: str, *, glyphs: bool = True) -> Face:
    """The face of card ``name`` (see :data:`CARD_NAMES`) in ``style``, with its two corner
    index marks. ``glyphs=False`` leaves the indices off (same pixels everywhere else) and
    still reports where they would be. A printed deck's style (``model.synth.deck_art``) draws
    its rasterised card."""
    from ..deck_art.faces import art_face, is_art

    if is_art(style):
        return art_face(style, name, glyphs=glyphs)
    if name not in CARD_NAMES[style.deck]:
        raise ValueError(f"{name!r} is not a card of the {style.deck} deck")
    design = design_of(style)
    paint = standard_face if style.deck == "standard" else special_face
    rgb, marks = paint(style, design, name, glyphs)
    rgb = grain(rgb, design.grain, style.name, name)
    return _frozen(Face(finish(rgb, design.radius), marks, code_of(name), style.name))


@functools.lru_cache(maxsize=256)
def render_back(style: CardStyle, variant: int = 0) -> Face:
    """A card back of ``style``; ``variant`` picks the design and the ink."""
    design = design_of(style)
    rgb = grain(draw_back(style, design, variant), design.grain, style.name, "back", variant)
    return _frozen(Face(finish(rgb, design.radius), (), None, style.name))


@functools.lru_cache(maxsize=256)
def render_nonplaying(style: CardStyle, kind: str, variant: int = 0) -> Face:
    """A card from the box that is not a playing card: ``kind`` is one of "rules", "hint",
    "promo" (the special deck's) or "ad", "score-card" (a standard deck's)."""
    if kind not in ALL_KINDS:
        raise ValueError(f"{kind!r} is not a non-playing card kind; known: {ALL_KINDS}")
    design = design_of(style)
    rgb = draw_nonplaying(style, design, kind, variant)
    rgb = grain(rgb, design.grain, style.name, kind, variant)
    return _frozen(Face(finish(rgb, design.radius), (), None, style.name))


assert FACE_HEIGHT == 350  # the drawing sizes above are tuned to this height

"""The values the parts of the scene renderer hand to each other.

Faces and props are drawn in their own pixel space ("face pixels": x right, y down, origin at the
top-left of the card as it stands upright); the scene places them on the table and the camera
maps them into the frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

Split = Literal["train", "test"]
DeckName = Literal["standard", "special"]

# A poker-size card is 63.5 × 88.9 mm; bridge-size decks are 57 mm wide. Faces are drawn
# FACE_HEIGHT pixels tall whatever their width, so a pixel is the same size on every deck.
FACE_HEIGHT = 350
CARD_HEIGHT_MM = 88.9


@dataclass(frozen=True)
class CardStyle:
    """One deck design. Styles whose ``split`` is ``"test"`` never appear in training scenes."""

    name: str
    deck: DeckName
    split: Split
    typeface: str  # the index typeface's name; held-out typefaces appear in test styles only
    jumbo: bool = False  # the large "jumbo index" many Hand and Foot players use
    glossy: float = 0.5  # 0 matte … 1 very glossy: how strong glare spots may be
    width: int = 250  # face width in pixels (250 poker, 224 bridge)


@dataclass(frozen=True)
class IndexMark:
    """One printed corner index (rank with its suit or colour mark, or the special deck's
    number or word): a quad in face pixels, corners in the order top-left, top-right,
    bottom-right, bottom-left *as the index is read*.

    ``orientation`` is 0 for the index that reads upright when the card stands upright (the
    top-left one) and 180 for the opposite corner's, printed upside down.
    """

    quad: np.ndarray  # (4, 2) float32
    orientation: int


@dataclass(frozen=True)
class Face:
    """A rendered card face or back: straight (not premultiplied) RGBA, alpha 0 outside the
    rounded corners. ``indices`` is empty for backs and non-playing cards."""

    rgba: np.ndarray  # (FACE_HEIGHT, width, 4) uint8, RGB order
    indices: tuple[IndexMark, ...]
    code: str | None  # RULES.md §6 token ("KR", "10B", "JK", "7", "LORD"); None if not a card
    style: str


@dataclass(frozen=True)
class Prop:
    """Something on the table that is not a playing card: a score pad, a phone, a cup, a hand.

    ``rgba`` is straight RGBA; ``size_mm`` its real (width, height) on the table, so the scene
    can scale it with the cards. ``edge`` props (hands) enter the frame from its border.
    """

    kind: str
    rgba: np.ndarray
    size_mm: tuple[float, float]
    edge: bool = False
    casts_shadow: bool = True
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Surface:
    """A table covering. Surfaces whose ``split`` is ``"test"`` never appear in training."""

    name: str
    kind: str  # "wood", "felt", "cloth", "laminate", …
    split: Split

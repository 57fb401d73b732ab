"""What lies on the table at the end of a deal, in table millimetres: melds fanned in rows in
front of players on every side, books, red threes laid apart, face-down piles, and clutter.

Nothing here draws; it decides where every object goes and in which order (later objects lie
on top of earlier ones).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from model.synth.types import CARD_HEIGHT_MM, FACE_HEIGHT, CardStyle

MM_PER_FACE_PX = CARD_HEIGHT_MM / FACE_HEIGHT

STANDARD_NATURALS = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SPECIAL_NATURALS = (*(str(n) for n in range(1, 13)), "LORD")
SUITS = ("H", "D", "C", "S")

# Kinds of card groups, as the labels name them.
FANNED = "fanned meld"
BOOK = "book"
SINGLE = "single card"
RED_THREE = "red three"
PILE = "pile"


@dataclass
class CardSpot:
    """One face-up card: which card, which deck design, and its pose on the table."""

    name: str  # the renderer's name: "KH", "JK2", "LORD"
    style: CardStyle
    centre: np.ndarray  # mm
    angle: float  # degrees, counter-clockwise: the card's "up" turned from table +y
    group: int


@dataclass
class ObjectSpot:
    """Anything else: a face-down card, a non-playing card, a prop."""

    kind: str  # "back", "nonplaying:<kind>", or a prop kind
    style: CardStyle | None
    centre: np.ndarray
    angle: float
    variant: int = 0
    group: int | None = None
    edge: bool = False


@dataclass
class Group:
    id: int
    kind: str
    cards: list[int] = field(default_factory=list)  # indices into Layout.cards, bottom first


@dataclass
class Layout:
    cards: list[CardSpot] = field(default_factory=list)
    objects_below: list[ObjectSpot] = field(default_factory=list)  # piles under everything
    objects_above: list[ObjectSpot] = field(default_factory=list)  # clutter over the cards
    groups: list[Group] = field(default_factory=list)


def card_size_mm(style: CardStyle) -> tuple[float, float]:
    return style.width * MM_PER_FACE_PX, CARD_HEIGHT_MM


def rotation(degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


# -- what a meld holds -------------------------------------------------------------------------


def _standard_card(rng: np.random.Generator, rank: str) -> str:
    return rank + SUITS[rng.integers(4)]


def _standard_wild(rng: np.random.Generator) -> str:
    roll = rng.random()
    if roll < 0.6:
        return _standard_card(rng, "2")
    return "JK" if roll < 0.8 else "JK2"


def meld_names(rng: np.random.Generator, deck: str, size: int, kind: str) -> list[str]:
    """Plausible cards for a meld of ``size`` cards (not always legal: players err too)."""
    if deck == "special":
        naturals, wild_choices = SPECIAL_NATURALS, ("JESTER", "JOKER")
        natural = lambda rank: rank  # noqa: E731
        wild = lambda: wild_choices[rng.integers(2)]  # noqa: E731
    else:
        naturals = STANDARD_NATURALS
        natural = lambda rank: _standard_card(rng, rank)  # noqa: E731
        wild = lambda: _standard_wild(rng)  # noqa: E731
    if kind == "wild" or rng.random() < 0.04:
        return [wild() for _ in range(size)]
    rank = naturals[rng.integers(len(naturals))]
    wilds = 0 if rng.random() < 0.45 else int(rng.integers(1, max(2, size // 3 + 1)))
    wilds = min(wilds, size - 2)
    names = [natural(rank) for _ in range(size - wilds)] + [wild() for _ in range(wilds)]
    order = rng.permutation(len(names)) if rng.random() < 0.3 else range(len(names))
    names = [names[i] for i in order]
    if deck == "special" and kind == BOOK and wilds == 0 and rng.random() < 0.3:
        names.append("LADY")  # a Lady laid on top of a clean group
    return names


def loose_names(rng: np.random.Generator, deck: str) -> tuple[str, str]:
    """A card lying on its own and its group kind: red threes, black threes, Villains…"""
    if deck == "special":  # Villains are discarded to block the pile; Ladies wait in hand
        roll = rng.random()
        if roll < 0.5:
            return ("VILLAIN", "LADY")[int(roll > 0.35)], SINGLE
        choices = ("JOKER", "JESTER", *SPECIAL_NATURALS)
        return choices[rng.integers(len(choices))], SINGLE
    if rng.random() < 0.5:
        return "3" + ("H", "D")[rng.integers(2)], RED_THREE
    choices = ("3C", "3S", "JK", "2H", "AS", "KD", "7C", "9H", "5S", "6D", "QC")
    return choices[rng.integers(len(choices))], SINGLE


# -- where things go -----------------------------------------------------------------------------


@dataclass
class _Fan:
    names: list[str]
    kind: str
    step: np.ndarray  # offset from one card to the next, in the meld's own frame (mm)
    jitter_mm: float
    jitter_deg: float

    def extent(self, card_w: float, card_h: float) -> np.ndarray:
        n = len(self.names) - 1
        return np.array([card_w + abs(self.step[0]) * n, card_h + abs(self.step[1]) * n])


def _fan(rng: np.random.Generator, deck: str, card_w: float, card_h: float) -> _Fan:
    roll = rng.random()
    if roll < 0.22:
        size, kind = int(rng.integers(7, 10)), BOOK
    elif roll < 0.30:
        size, kind = 7, "squared"
    else:
        size, kind = int(rng.integers(3, 7)), FANNED
    names = meld_names(rng, deck, size, BOOK if size >= 7 else kind)
    if kind == "squared":  # a finished book squared up: only its top card shows
        return _Fan(names, BOOK, np.array([0.0, 0.0]), 1.2, 2.5)
    shows = rng.uniform(0.15, 0.40)
    if rng.random() < 0.7:  # fanned sideways: each card shows a strip of its width
        step = np.array([shows * card_w, 0.0])
    else:  # cascaded downwards: each card shows a strip of its height
        step = np.array([0.0, -rng.uniform(0.14, 0.30) * card_h])
    return _Fan(names, kind, step, 1.0, 2.0)


def _occupied(polygons: list[np.ndarray], candidate: np.ndarray) -> bool:
    import cv2

    for polygon in polygons:
        area, _ = cv2.intersectConvexConvex(
            polygon.astype(np.float32), candidate.astype(np.float32)
        )
        if area > 1.0:
            return True
    return False


def _box(centre: np.ndarray, size: np.ndarray, angle: float) -> np.ndarray:
    half = size / 2
    corners = np.array([[-half[0], -half[1]], [half[0], -half[1]], half, [-half[0], half[1]]])
    return corners @ rotation(angle).T + centre


def plan_table(
    rng: np.random.Generator,
    area: np.ndarray,
    styles: list[CardStyle],
    deck: str,
    in_view: Callable[[np.random.Generator], np.ndarray] | None = None,
) -> Layout:
    """Fill ``area`` (the visible table quad in mm, grown a little so cards can leave the frame)
    with rows of melds in front of players sitting on one to four sides. ``in_view`` draws a
    table point the camera sees well (default: anywhere in ``area``'s middle); rows start
    there and run off the edges."""
    layout = Layout()
    lo, hi = area.min(axis=0), area.max(axis=0)
    taken: list[np.ndarray] = []
    seats = rng.choice([0.0, 90.0, 180.0, 270.0], size=int(rng.integers(1, 5)), replace=False)
    style_weights = rng.dirichlet(np.ones(len(styles)) * 0.7)
    # Two sides' tables at the end of a deal: a few to a few dozen melds and books, denser
    # where the camera sees less of the table.
    _place_loose_cards(rng, layout, taken, lo, hi, styles, style_weights, deck)
    area_m2 = float(np.prod(hi - lo)) / 1e6
    wanted = int(np.clip(area_m2 * rng.uniform(35, 90), 4, 30))
    if in_view is None:
        centre, half = (lo + hi) / 2, (hi - lo) * 0.4
        in_view = lambda rng: rng.uniform(centre - half, centre + half)  # noqa: E731
    for _ in range(80):
        if len(layout.groups) >= wanted:
            break
        seat = float(rng.choice(seats))
        angle = seat + rng.normal(0, 4) if rng.random() < 0.85 else rng.uniform(0, 360)
        start = in_view(rng)
        _place_row(rng, layout, taken, start, angle, styles, style_weights, deck)
    return layout


def _place_row(rng, layout, taken, start, angle, styles, weights, deck) -> bool:
    """A row of melds side by side along the seat's left-to-right direction."""
    along = rotation(angle) @ np.array([1.0, 0.0])
    cursor = np.array(start, dtype=float)
    placed = 0
    for _ in range(int(rng.integers(1, 6))):
        style = styles[rng.choice(len(styles), p=weights)]
        card_w, card_h = card_size_mm(style)
        fan = _fan(rng, deck, card_w, card_h)
        extent = fan.extent(card_w, card_h)
        centre = cursor + along * extent[0] / 2
        outline = _box(centre, extent + 4.0, angle)
        if _occupied(taken, outline):
            break
        taken.append(outline)
        _lay_fan(rng, layout, fan, centre, extent, angle, styles, weights, style)
        cursor = cursor + along * (extent[0] + rng.uniform(4, 30))
        placed += 1
    return placed > 0


def _lay_fan(rng, layout, fan, centre, extent, angle, styles, weights, style) -> None:
    group = Group(len(layout.groups), fan.kind)
    card_w, card_h = card_size_mm(style)
    turn = rotation(angle)
    # The first card sits at the fan's top-left; each next one is offset by ``step``.
    first = np.array([-(extent[0] - card_w) / 2, (extent[1] - card_h) / 2])
    if fan.step[0] < 0:
        first[0] = -first[0]
    mixed = rng.random() < 0.35  # many tables shuffle several deck designs together
    for i, name in enumerate(fan.names):
        local = first + fan.step * i + rng.normal(0, fan.jitter_mm, 2)
        card_style = styles[rng.choice(len(styles), p=weights)] if mixed else style
        if name == "LADY":  # the cap lies squarely on the group's top card
            local = first + fan.step * (i - 1) + rng.normal(0, 1.5, 2)
        layout.cards.append(
            CardSpot(
                name,
                card_style,
                centre + turn @ local,
                angle + rng.normal(0, fan.jitter_deg),
                group.id,
            )
        )
        group.cards.append(len(layout.cards) - 1)
    layout.groups.append(group)


def _place_loose_cards(rng, layout, taken, lo, hi, styles, weights, deck) -> None:
    for _ in range(int(rng.integers(0, 6))):
        style = styles[rng.choice(len(styles), p=weights)]
        name, kind = loose_names(rng, deck)
        count = int(rng.integers(1, 4)) if kind == RED_THREE else 1
        card_w, card_h = card_size_mm(style)
        angle = rng.uniform(0, 360)
        along = rotation(angle) @ np.array([1.0, 0.0])
        step = card_w * rng.uniform(1.05, 1.3)  # red threes lie side by side, apart
        for _ in range(8):  # a few tries to find a free spot
            centre = rng.uniform(lo, hi)
            middle = centre + along * step * (count - 1) / 2
            outline = _box(middle, np.array([step * count, card_h]) + 4, angle)
            if not _occupied(taken, outline):
                break
        else:
            continue
        taken.append(outline)
        for i in range(count):
            group = Group(len(layout.groups), kind)
            card = name if i == 0 else ("3" + ("H", "D")[rng.integers(2)])
            layout.cards.append(
                CardSpot(card, style, centre + along * step * i, angle + rng.normal(0, 3), group.id)
            )
            group.cards.append(len(layout.cards) - 1)
            layout.groups.append(group)

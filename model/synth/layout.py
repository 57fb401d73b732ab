"""What lies on the table at the end of a deal, in table millimetres: melds fanned in rows in
front of players on every side, books, red threes laid apart, face-down piles, and clutter
(:func:`plan_table`, the busy training tables). Two tidy layouts show what a camera on a stand
above one side sees: that side's legal melds (:func:`plan_side`) or a hand's leftover cards
(:func:`plan_leftovers`), every index readable.

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


def _lay_fan(
    rng, layout, fan, centre, extent, angle, styles, weights, style, *, lady_squared=True
) -> None:
    """Lay ``fan``'s cards. ``lady_squared``: a Lady covers the group's top card squarely (as
    players cap a finished group); else she is fanned on like one more card."""
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
        if name == "LADY" and lady_squared:  # the cap lies squarely on the group's top card
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


# -- tidy tables: one side's melds, a hand's leftovers -------------------------------------------
#
# What a camera on a stand sees: everything face up, in rows, every card's top-left index
# showing, nothing off the table's edge. The scene fits its camera to the layout afterwards.

IndexReach = Callable[[CardStyle, str], np.ndarray]
"""Where a card's top-left index ends: (x, y) in mm from the face's top-left corner."""

WILD_LIMITS = ((5, 1), (7, 2), (9, 3))  # melds of up to N cards hold at most this many wilds
# pagat, the standard deck's preset, closes a book at 7 and allows no more; the special deck's
# groups may grow.
BOOK_SIZES = {"standard": (7,), "special": (7, 8, 9)}
INDEX_CLEARANCE_MM = 4.0  # what a fan leaves beyond each index, so jitter never covers it


def wild_limit(size: int) -> int:
    """The most wild cards a meld of ``size`` cards holds on a tidy table: the limit most rule
    sets share (pagat's 2:1 ratio and "more naturals than wilds" both allow at least this).

    >>> [wild_limit(n) for n in (3, 5, 6, 7, 8, 9)]
    [1, 1, 2, 2, 3, 3]
    """
    for most, wilds in WILD_LIMITS:
        if size <= most:
            return wilds
    return (size - 1) // 3


def side_melds(rng: np.random.Generator, deck: str, count: int) -> list[list[str]]:
    """``count`` legal melds of distinct ranks, bottom card first, as one side has them at the
    end of a deal: incomplete melds of 3–6 cards and books (``BOOK_SIZES``), clean or dirty
    within :func:`wild_limit`, never a three. The special deck caps at most one clean book
    with a Lady, laid last."""
    if deck == "special":
        naturals: tuple[str, ...] = SPECIAL_NATURALS
        natural = lambda rank: rank  # noqa: E731
        wild = lambda: ("JESTER", "JOKER")[rng.integers(2)]  # noqa: E731
    else:
        naturals = STANDARD_NATURALS
        natural = lambda rank: _standard_card(rng, rank)  # noqa: E731
        wild = lambda: _standard_wild(rng)  # noqa: E731
    lady = deck == "special" and rng.random() < 0.5
    melds = []
    for rank_number in rng.choice(len(naturals), size=count, replace=False):
        if rng.random() < 0.45:
            sizes = BOOK_SIZES[deck]
            size = int(sizes[rng.integers(len(sizes))])
        else:
            size = int(rng.integers(3, 7))
        wilds = 0 if rng.random() < 0.5 else int(rng.integers(1, wild_limit(size) + 1))
        names = [natural(naturals[rank_number]) for _ in range(size - wilds)]
        extra = [wild() for _ in range(wilds)]
        roll = rng.random()  # where the wild cards went: laid last, first, or as they came
        if roll < 0.6:
            names += extra
        elif roll < 0.8:
            names = extra + names
        else:
            names += extra
            names = [names[i] for i in rng.permutation(len(names))]
        if lady and size >= BOOK_SIZES[deck][0] and wilds == 0:
            names.append("LADY")
            lady = False
        melds.append(names)
    return melds


def leftover_name(rng: np.random.Generator, deck: str) -> str:
    """Any card a hand may hold at the end: naturals mostly, wild cards, threes of both
    colours; for the special deck Villains and Ladies too."""
    roll = rng.random()
    if deck == "special":
        for name, below in (("VILLAIN", 0.1), ("LADY", 0.17), ("JESTER", 0.25), ("JOKER", 0.3)):
            if roll < below:
                return name
        return SPECIAL_NATURALS[rng.integers(len(SPECIAL_NATURALS))]
    if roll < 0.1:
        return "3" + ("C", "S")[rng.integers(2)]
    if roll < 0.16:
        return "3" + ("H", "D")[rng.integers(2)]
    if roll < 0.24:
        return _standard_card(rng, "2")
    if roll < 0.29:
        return ("JK", "JK2")[rng.integers(2)]
    return _standard_card(rng, STANDARD_NATURALS[rng.integers(len(STANDARD_NATURALS))])


class _Reach:
    """How far a fan must shift each card so the one below shows its top-left index, whichever
    of the scene's designs a card is drawn in."""

    def __init__(self, styles: list[CardStyle], index_reach: IndexReach | None) -> None:
        self.styles = styles
        self.index_reach = index_reach or _assumed_reach
        widths = [card_size_mm(style)[0] for style in styles]
        self.width = max(widths)
        # A narrower card on a wider one leaves less of it showing.
        self.width_spread = (max(widths) - min(widths)) / 2

    def covered(self, names: list[str]) -> np.ndarray:
        """(x, y) mm every card but the last needs uncovered from its top-left corner."""
        reaches = [self.index_reach(style, name) for name in names[:-1] for style in self.styles]
        return np.max(reaches, axis=0) + INDEX_CLEARANCE_MM if reaches else np.zeros(2)

    def fan(self, rng, names: list[str], kind: str, cascade: bool) -> _Fan:
        need = self.covered(names)
        if cascade and need[1] <= 0.32 * CARD_HEIGHT_MM:  # tall jumbo indices fan sideways
            step = [0.0, -max(rng.uniform(0.16, 0.30) * CARD_HEIGHT_MM, need[1])]
        else:
            step = [max(rng.uniform(0.22, 0.40) * self.width, need[0] + self.width_spread), 0.0]
        return _Fan(names, kind, np.array(step), 0.5, 0.8)


def _assumed_reach(style: CardStyle, name: str) -> np.ndarray:
    """Without the faces at hand: the largest index any design prints."""
    return np.array([0.40 * card_size_mm(style)[0], 0.44 * CARD_HEIGHT_MM])


def _rows(rng: np.random.Generator, extents: list[np.ndarray], width: float) -> list[np.ndarray]:
    """Centres for boxes of ``extents`` laid left to right in rows at most ``width`` wide, top
    edges aligned, each row nearer the player (table -y) than the last."""
    centres = []
    x, top, height = 0.0, 0.0, 0.0
    for extent in extents:
        if x > 0 and x + extent[0] > width:
            x, top, height = 0.0, top - height - rng.uniform(12, 30), 0.0
        centres.append(np.array([x + extent[0] / 2, top - extent[1] / 2]))
        x += extent[0] + rng.uniform(10, 32)
        height = max(height, extent[1])
    return centres


def _lay_rows(rng, layout: Layout, fans: list[_Fan], styles, weights, width: float) -> None:
    """Lay ``fans`` in rows (see :func:`_rows`), each turned a degree or so unless that would
    touch a neighbour."""
    taken: list[np.ndarray] = []
    picked = [styles[rng.choice(len(styles), p=weights)] for _ in fans]
    extents = [fan.extent(*card_size_mm(style)) for fan, style in zip(fans, picked, strict=True)]
    for fan, style, extent, centre in zip(
        fans, picked, extents, _rows(rng, extents, width), strict=True
    ):
        angle = float(rng.normal(0, 1.0))
        if _occupied(taken, _box(centre, extent + 3, angle)):
            angle = 0.0
        taken.append(_box(centre, extent + 3, angle))
        _lay_fan(
            rng, layout, fan, centre, extent, angle, styles, weights, style, lady_squared=False
        )
        if fan.kind in (SINGLE, RED_THREE):
            _split_last_group(layout)


def _split_last_group(layout: Layout) -> None:
    """The last group laid becomes one group per card: cards lying apart, or a hand's cards
    spread for counting, belong to no meld."""
    group = layout.groups.pop()
    for card in group.cards:
        kind = RED_THREE if layout.cards[card].name in ("3H", "3D") else SINGLE
        layout.cards[card].group = len(layout.groups)
        layout.groups.append(Group(len(layout.groups), kind, [card]))


def plan_side(
    rng: np.random.Generator,
    styles: list[CardStyle],
    deck: str,
    index_reach: IndexReach | None = None,
) -> Layout:
    """One side's table at the end of a deal, laid in front of the player: 3–8 legal melds of
    distinct ranks (:func:`side_melds`) fanned sideways or cascaded downwards in rows, and for
    the standard deck 0–3 red threes side by side, apart. Every card's top-left index shows
    (``index_reach`` says where each index ends; without it the largest any design prints is
    assumed). Table mm around the origin; the camera is fitted afterwards."""
    layout = Layout()
    reach = _Reach(styles, index_reach)
    weights = rng.dirichlet(np.ones(len(styles)) * 0.7)
    melds = side_melds(rng, deck, int(rng.integers(3, 9)))
    if rng.random() < 0.4:  # some players keep their books together, first
        melds.sort(key=lambda names: len(names) < BOOK_SIZES[deck][0])
    habit = rng.random()  # sideways fans, cascades, or some of each
    fans = []
    for names in melds:
        cascade = habit > 0.55 if habit < 0.8 else rng.random() < 0.4
        kind = BOOK if len(names) >= BOOK_SIZES[deck][0] else FANNED
        fans.append(reach.fan(rng, names, kind, cascade))
    threes = int(rng.integers(0, 4)) if deck == "standard" else 0
    if threes:
        names = ["3" + ("H", "D")[rng.integers(2)] for _ in range(threes)]
        apart = _Fan(names, RED_THREE, np.array([reach.width + rng.uniform(10, 25), 0.0]), 0.8, 1.5)
        fans.insert(0 if rng.random() < 0.5 else len(fans), apart)
    _lay_rows(rng, layout, fans, styles, weights, rng.uniform(420, 800))
    return layout


def plan_leftovers(
    rng: np.random.Generator,
    styles: list[CardStyle],
    deck: str,
    index_reach: IndexReach | None = None,
) -> Layout:
    """A hand's or an untaken foot's cards spread on the table for counting: 3–15 cards of any
    rank (:func:`leftover_name`) in one or a few rows, each row laid apart or slightly
    overlapping with every top-left index showing. Each card is a group of its own."""
    layout = Layout()
    reach = _Reach(styles, index_reach)
    weights = rng.dirichlet(np.ones(len(styles)) * 0.7)
    names = [leftover_name(rng, deck) for _ in range(int(rng.integers(3, 16)))]
    per_row = int(rng.integers(4, 9))
    fans = []
    for start in range(0, len(names), per_row):
        spread = names[start : start + per_row]
        if rng.random() < 0.5:  # apart
            step = reach.width + rng.uniform(12, 30)
            fans.append(_Fan(spread, SINGLE, np.array([step, 0.0]), 1.0, 1.5))
        else:  # overlapping, as a hand is spread
            fan = reach.fan(rng, spread, SINGLE, cascade=False)
            fan.step[0] = max(fan.step[0], rng.uniform(0.35, 0.75) * reach.width)
            fans.append(fan)
    _lay_rows(rng, layout, fans, styles, weights, rng.uniform(200, 700))
    return layout


TEACH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TEACH_WORDS = ("LORD", "LADY", "VILLAIN", "JESTER", "JOKER")


def teach_rows(rng: np.random.Generator, deck: str) -> list[list[str]]:
    """The cards of a deck laid out to teach it (``scanner/decks/layouts.py``), row by row:
    the thirteen ranks of a red suit, of a black suit, then a joker; or 1 to 12, then the
    special deck's words."""
    if deck == "special":
        return [[str(n) for n in range(1, 13)], list(TEACH_WORDS)]
    red, black = ("H", "D")[rng.integers(2)], ("C", "S")[rng.integers(2)]
    return [[r + red for r in TEACH_RANKS], [r + black for r in TEACH_RANKS], ["JK"]]


def plan_teach(
    rng: np.random.Generator,
    styles: list[CardStyle],
    deck: str,
    index_reach: IndexReach | None = None,
) -> Layout:
    """A whole deck laid out to teach it, in one design (the first of ``styles``): each row of
    :func:`teach_rows` as cards lying apart or overlapping a little with every top-left index
    showing, a long row wrapped where the table is narrow. Each card is a group of its own."""
    layout = Layout()
    style = styles[:1]
    reach = _Reach(style, index_reach)
    overlap = rng.random() < 0.5
    fans = []
    for row in teach_rows(rng, deck):
        chunk = 7 if rng.random() < 0.4 else len(row)  # wrapped on a narrow table
        for start in range(0, len(row), chunk):
            part = row[start : start + chunk]
            step = reach.width + rng.uniform(6, 20)
            if overlap:
                step = max(reach.covered(part)[0] + 4, rng.uniform(0.5, 0.8) * reach.width)
            fans.append(_Fan(part, SINGLE, np.array([step, 0.0]), 1.0, 1.0))
    # each fan a row of its own: the rows are as wide as the widest fan
    width = max(fan.extent(*card_size_mm(style[0]))[0] for fan in fans) + 1
    _lay_rows(rng, layout, fans, style, np.ones(1), width)
    return layout


def card_outlines(layout: Layout) -> list[np.ndarray]:
    """Every face-up card's outline on the table, mm."""
    return [
        _box(spot.centre, np.array(card_size_mm(spot.style)), spot.angle) for spot in layout.cards
    ]

"""The layouts a deck is taught from, and which card read in a photo of one is which (pure).

A layout is laid in rows under the camera, read left to right, top to bottom:

- standard: the thirteen ranks of a red suit (A 2 3 … 10 J Q K), then the same of a black
  suit, then a joker;
- special: 1 to 12, then LORD LADY VILLAIN JESTER JOKER.

Where a row is wrapped (a table too narrow for thirteen cards) the order still holds. The
cards read are matched to the layout's order by the cheapest alignment (:func:`align`): a card
read as what its place says costs nothing, as its rank in the other colour a little, as
another card a step and a quarter, missed or seen where no place is a step each; so a card
the reader missed, misread or saw twice moves no other card's code.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from scanner.vision.contract import SPECIAL_CLASSES, STANDARD_CLASSES

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
LAYOUTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "standard": (tuple(r + "R" for r in _RANKS), tuple(r + "B" for r in _RANKS), ("JK",)),
    "special": (
        tuple(str(n) for n in range(1, 13)),
        ("LORD", "LADY", "VILLAIN", "JESTER", "JOKER"),
    ),
}
assert set(sum(LAYOUTS["standard"], ())) == set(STANDARD_CLASSES)
assert set(sum(LAYOUTS["special"], ())) == set(SPECIAL_CLASSES)

MISSED = 1.0  # a place of the layout with no card read for it
EXTRA = 1.0  # a card read that is no place's
OTHER_COLOUR = 0.25  # a card read as its place's rank in the other colour
# a card read as another: less than one card missed and one extra, but more than half that,
# so a card seen twice or missed never shifts the codes of the cards after it
OTHER_CARD = 1.25


def layout_codes(layout: str) -> tuple[str, ...]:
    """The layout's codes in reading order. Raises ValueError for an unknown layout."""
    if layout not in LAYOUTS:
        raise ValueError(f"a layout is {' or '.join(LAYOUTS)}, not {layout!r}")
    return sum(LAYOUTS[layout], ())


def layout_rows(layout: str) -> tuple[tuple[str, ...], ...]:
    layout_codes(layout)
    return LAYOUTS[layout]


@dataclass(frozen=True)
class Placed:
    """A card read in the layout photo: where its middle lies and its size (px), the code it
    was read as, and its angle (degrees clockwise from upright, as the reader gives it)."""

    x: float
    y: float
    height: float
    code: str
    angle: float = 0.0


def reading_rows(cards: Sequence[Placed]) -> list[list[int]]:
    """The cards' indices by rows, top to bottom, each left to right. The layout is first
    turned upright by the cards' mean angle (a table photographed a little askew runs its
    rows downhill), then a row ends where the next card down lies more than half a card's
    height below the last.
    """
    if not cards:
        return []
    turn = _mean_angle([card.angle for card in cards])
    cos, sin = math.cos(turn), math.sin(turn)
    # each middle turned back by the layout's angle: y' runs down the upright layout
    down = [-card.x * sin + card.y * cos for card in cards]
    along = [card.x * cos + card.y * sin for card in cards]
    height = sorted(card.height for card in cards)[len(cards) // 2]
    by_height = sorted(range(len(cards)), key=lambda n: down[n])
    rows: list[list[int]] = [[by_height[0]]]
    for last, n in itertools.pairwise(by_height):
        if down[n] - down[last] > height / 2:
            rows.append([n])
        else:
            rows[-1].append(n)
    return [sorted(row, key=lambda k: along[k]) for row in rows]


def reading_order(cards: Sequence[Placed]) -> list[int]:
    """The cards' indices in reading order (see :func:`reading_rows`).

    >>> cards = [Placed(200, 12, 40, "2R"), Placed(10, 8, 40, "AR"), Placed(15, 60, 40, "AB")]
    >>> reading_order(cards)
    [1, 0, 2]
    >>> downhill = [Placed(100 * n, 9 * n, 40, "x", 5.0) for n in range(6)]
    >>> reading_order(downhill + [Placed(0, 60, 40, "y", 5.0)])
    [0, 1, 2, 3, 4, 5, 6]
    """
    return [n for row in reading_rows(cards) for n in row]


def _mean_angle(degrees: Sequence[float]) -> float:
    """The cards' mean angle in radians, upright and upside down alike (a card lying upside
    down reads from its other corner), between −90° and 90°."""
    doubled = [math.radians(2 * a) for a in degrees]
    return 0.5 * math.atan2(sum(map(math.sin, doubled)), sum(map(math.cos, doubled)))


def _cost(read: str, place: str) -> float:
    if read == place:
        return 0.0
    if read[:-1] and read[:-1] == place[:-1] and {read[-1], place[-1]} == {"R", "B"}:
        return OTHER_COLOUR
    return OTHER_CARD


def align(read: Sequence[str], places: Sequence[str]) -> tuple[float, list[int | None]]:
    """The cheapest matching of the codes ``read`` (in reading order) to the layout's
    ``places``, in order: its cost and, for each place, the index of the card read there
    (None: none).

    >>> align(["AR", "3R", "4R"], ["AR", "2R", "3R", "4R"])
    (1.0, [0, None, 1, 2])
    >>> align(["AR", "5R", "3R"], ["AR", "2R", "3R"])[1]
    [0, 1, 2]
    """
    n, m = len(read), len(places)
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    step = [[""] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0], step[i][0] = i * EXTRA, "extra"
    for j in range(1, m + 1):
        cost[0][j], step[0][j] = j * MISSED, "missed"
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            options = (
                (cost[i - 1][j - 1] + _cost(read[i - 1], places[j - 1]), "match"),
                (cost[i - 1][j] + EXTRA, "extra"),
                (cost[i][j - 1] + MISSED, "missed"),
            )
            cost[i][j], step[i][j] = min(options, key=lambda option: option[0])
    matched: list[int | None] = [None] * m
    i, j = n, m
    while i or j:
        kind = step[i][j]
        if kind == "match":
            matched[j - 1] = i - 1
            i, j = i - 1, j - 1
        elif kind == "extra":
            i -= 1
        else:
            j -= 1
    return cost[n][m], matched


def placed_codes(cards: Sequence[Placed], layout: str) -> list[str | None]:
    """The code each card's place in ``layout`` gives it (None: a card no place takes), the
    photo read upright or upside down, whichever matches the layout better. A row on the
    table holds cards of one row of the layout (a long row may wrap onto the next): a card
    matched to another row of the layout than most of its row's is no place's.

    >>> row = [Placed(100 * n, 0, 40, c) for n, c in enumerate("1 2 3 4 5 6 7 8 9 10 11 2".split())]
    >>> placed_codes(row, "special")[-1] is None
    True
    """
    places = layout_codes(layout)
    row_of = {code: r for r, row in enumerate(layout_rows(layout)) for code in row}
    rows = reading_rows(cards)
    order = [n for row in rows for n in row]
    best: tuple[float, list[str | None]] | None = None
    for ordered in (order, order[::-1]):
        cost, matched = align([cards[n].code for n in ordered], places)
        codes: list[str | None] = [None] * len(cards)
        for place, k in zip(places, matched, strict=True):
            if k is not None:
                codes[ordered[k]] = place
        if best is None or cost < best[0]:
            best = (cost, codes)
    assert best is not None
    codes = best[1]
    for row in rows:
        taken = Counter(row_of[codes[n]] for n in row if codes[n] is not None)
        if taken:
            most = taken.most_common(1)[0][0]
            for n in row:
                if codes[n] is not None and row_of[codes[n]] != most:
                    codes[n] = None
    return codes

"""The cards of one frame → melds, red threes and loose cards, by their layout alone.

A meld lies fanned (each card shows a strip of its width, 15–40 %) or cascaded (a strip of its
height, 14–30 %), every card turned the same way; melds, red threes and loose cards lie apart.
Only the strip with a card's top-left index shows, so the recogniser reads a fan's cards from
the indices along its edge: their centres are sharp (about 0.02 of a card's short side off),
while the card outline it guesses around each is not (about 0.17 off at the median, the angle
8° and at times 30°). So cards are joined by their indices, not by overlapping outlines:

1. **Fan steps.** Two cards read the same way up (within :data:`SAME_WAY` degrees) whose index
   centres lie within :data:`STEP_SIDEWAYS` of a card's width sideways and :data:`STEP_DOWN` of
   its height downwards, in the pair's own axes, are neighbours in a fan. A fan's steps are at
   most 0.4 of a width sideways and 0.3 of a height down (more where a card in between was not
   read), while the nearest card of another meld lies a whole card plus a gap away.
2. **Top cards read from the far corner.** A fan's top card shows both indices and may be read
   from the bottom-right one, upside down against its fan. A lone card read so is joined to the
   group whose fan it ends: where its top-left index must be (its index moved back across the
   card, by the frame's typical index-to-centre offset, in the fan's direction) lies within
   :data:`TOP_REACH` of a card of that group. Each group takes at most one such card and each
   card joins at most one group, the closest pairs first.

3. **Melds close together.** Two groups whose nearest cards read alike and lie within
   :data:`NEAR` of a card's width and height are most likely one meld split where cards were
   not read (a fan's step over two missed cards is as long as the way to the next meld), or two
   melds laid touching: they stay apart, and both say so (``doubt``), so a person counts them.
4. **Strays.** An unsure reading (below the recogniser's confidence) lying alone, farther than
   :data:`STRAY_APART` card short sides from every other card, is most often the tablecloth's
   pattern read as a card, not a card (model/experiments/measured-sets.md). It is set apart
   from the singles (``strays``) so the caller can show it without counting it or asking
   about it.
   Only where the frame holds a sure card to measure against.
5. **Red threes apart.** Red threes are never melded: a red three is neither a step of a fan of
   other cards nor its top card (a column of red threes laid beside the melds touches them), and
   a group of red threes alone is red threes lying close, each reported as one.

Card sizes are the median of the outlines of a card and its :data:`NEIGHBOURS` nearest cards,
as sizes vary over a tilted camera's frame and single outlines are noisy. Nothing here looks at
the codes (the engine judges what a group holds), except that a "3R" is a red three, never in
a meld, and a Lady, which lies squarely on its group's top card, is put last.

Orders (all follow from positions, never from the input order):
- a group's cards run the way its fan does: the bottom card first, then along the fan as its
  cards read (left to right for a sideways fan, top to bottom for a cascade), a Lady last;
- melds, red threes and singles go in reading order of their centres: rows one card's short
  side tall, top to bottom, then left to right within a row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.vision.cards import CardReading

Point = tuple[float, float]
RED_THREE = "3R"
LADY = "LADY"

# Each chosen on the tables of model/experiments/measured-sets.md (whole tables):
SAME_WAY = 40.0  # degrees: a fan's cards read alike, within the recogniser's angle error
STEP_SIDEWAYS = 0.75  # card widths: a fan's step, one over a missed card, short of the next meld
STEP_DOWN = 0.85  # card heights: a cascade's step, likewise, short of the next row
NEAR = 1.0  # card widths and heights: closer than this, two groups may be one meld
CLOSE_DOUBT = "lies close to another meld: a card between them may not have been read: count both"
FLIPPED = 50.0  # degrees from upside down against the fan for a top card read from its far index
TOP_REACH = 0.75  # card widths and heights between a top card's estimated index and its fan's
NEIGHBOURS = 6  # cards whose outlines, with its own, give a card's size
LINE_MIN_SPREAD = 0.1  # card widths (rms): indices this spread out give the fan's direction
LINE_AGREE = 25.0  # degrees: … when it agrees this well with how the cards read
STRAY_APART = 2.0  # card short sides between an unsure lone reading and every other card


@dataclass(frozen=True)
class CardGroup:
    """Cards lying over one another: a meld, a book, or a stack (a pair is reported too; the
    engine calls it too small). ``cards`` run in fan order, bottom card first; ``outline`` is
    the convex hull of their outlines, frame px."""

    cards: tuple[CardReading, ...]
    outline: tuple[Point, ...]
    doubt: str | None = None  # why a person should count this group

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.cards)


@dataclass(frozen=True)
class Grouping:
    """One frame's cards sorted by layout. ``singles`` are lone cards other than red threes: a
    squared book, a stray or discarded card; the caller decides, this never guesses.
    ``strays`` are unsure lone readings far from every card (see the module's docstring)."""

    melds: tuple[CardGroup, ...]
    red_threes: tuple[CardReading, ...]
    singles: tuple[CardReading, ...]
    strays: tuple[CardReading, ...] = ()


def group_cards(cards: Sequence[CardReading]) -> Grouping:
    """Group one frame's cards into melds by layout (see the module's docstring)."""
    ordered = sorted(cards, key=_card_key)
    if not ordered:
        return Grouping((), (), ())
    layout = _Layout.of(ordered)
    pairs = _pair_distances(layout)
    steps = _unmelded_threes(ordered, _step_links(pairs))
    fans = _components(len(ordered), steps)
    groups = _components(len(ordered), steps + _unmelded_threes(ordered, _top_links(layout, fans)))
    # red threes are never melded: together they are red threes lying close
    groups = [
        part
        for members in groups
        for part in (
            [[k] for k in members]
            if all(ordered[k].code == RED_THREE for k in members)
            else [members]
        )
    ]
    row = float(np.median(np.minimum(layout.widths, layout.heights)))
    multiple = [members for members in groups if len(members) > 1]
    close = _close_groups(pairs, multiple)
    melds = [
        _card_group(layout, ordered, members, CLOSE_DOUBT if n in close else None)
        for n, members in enumerate(multiple)
    ]
    lone = [members[0] for members in groups if len(members) == 1]
    strays = _strays(layout, ordered, lone, row)
    kept = [ordered[k] for k in lone if k not in strays]
    return Grouping(
        melds=tuple(sorted(melds, key=lambda g: _reading_key(_centre(g.outline), row))),
        red_threes=tuple(_in_reading_order([c for c in kept if c.code == RED_THREE], row)),
        singles=tuple(_in_reading_order([c for c in kept if c.code != RED_THREE], row)),
        strays=tuple(_in_reading_order([ordered[k] for k in sorted(strays)], row)),
    )


def _strays(
    layout: _Layout, cards: Sequence[CardReading], lone: Sequence[int], size: float
) -> set[int]:
    """The lone unsure readings lying farther than STRAY_APART × ``size`` (the frame's median
    card short side) from every other card; none where no card is read surely. A disputed
    card (two sure codes at its corners, ``cards.py``) is a card, whatever else it is."""
    if all(card.check for card in cards):
        return set()
    distances = np.linalg.norm(layout.anchors[:, None] - layout.anchors[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    nearest = distances.min(axis=1)
    return {
        k
        for k in lone
        if cards[k].check and not cards[k].disputed and nearest[k] > STRAY_APART * size
    }


# -- geometry --------------------------------------------------------------------------------


def index_centre(card: CardReading) -> np.ndarray:
    """The centre of the index the card was read from, frame px."""
    x0, y0, x1, y1 = card.index_box
    return np.array([(x0 + x1) / 2, (y0 + y1) / 2])


def _axes(angle: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reading direction u and "down the card" v of cards turned ``angle`` clockwise."""
    theta = np.radians(angle)
    u = np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    return u, np.stack([-u[..., 1], u[..., 0]], axis=-1)


def _angle_gap(first: float | np.ndarray, second: float | np.ndarray) -> np.ndarray:
    return np.abs((np.asarray(first) - np.asarray(second) + 180.0) % 360.0 - 180.0)


def mean_angle(angles: Sequence[float] | np.ndarray) -> float:
    """The mean of reading angles (degrees, 0–360), each as a unit vector."""
    u, _ = _axes(np.asarray(angles, dtype=np.float64))
    x, y = u.reshape(-1, 2).sum(axis=0)
    return float(np.degrees(np.arctan2(y, x)) % 360.0)


@dataclass(frozen=True)
class _Layout:
    """The frame's cards as arrays: index centres, reading angles, local card sizes, and the
    typical offset from a read index to its card's centre (in card widths and heights)."""

    anchors: np.ndarray  # [n, 2] px
    angles: np.ndarray  # [n] degrees
    widths: np.ndarray  # [n] px, along u
    heights: np.ndarray  # [n] px, along v
    offset: np.ndarray  # [2]: along u in widths, along v in heights

    @classmethod
    def of(cls, cards: Sequence[CardReading]) -> _Layout:
        anchors = np.array([index_centre(card) for card in cards])
        polygons = np.array([card.polygon for card in cards], dtype=np.float64)
        angles = np.array([card.angle for card in cards], dtype=np.float64) % 360.0
        sides = np.linalg.norm(polygons - np.roll(polygons, -1, axis=1), axis=2)
        widths = np.maximum((sides[:, 0] + sides[:, 2]) / 2, 1e-6)
        heights = np.maximum((sides[:, 1] + sides[:, 3]) / 2, 1e-6)
        u, v = _axes(angles)
        to_centre = polygons.mean(axis=1) - anchors
        # The frame's median, not each card's own guess: single outlines are the noisy part.
        offset = np.array(
            [
                np.median((to_centre * u).sum(axis=1) / widths),
                np.median((to_centre * v).sum(axis=1) / heights),
            ]
        )
        return cls(anchors, angles, _local(anchors, widths), _local(anchors, heights), offset)


def _local(anchors: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each card's value as the median over it and its nearest neighbours."""
    distances = np.linalg.norm(anchors[:, None] - anchors[None], axis=2)
    nearest = np.argsort(distances, axis=1, kind="stable")[:, : NEIGHBOURS + 1]
    return np.median(values[nearest], axis=1)


# -- links -------------------------------------------------------------------------------------


def _unmelded_threes(
    cards: Sequence[CardReading], links: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """``links`` less those between a red three and another card: red threes are never melded,
    so a red three is neither a step of a fan of other cards nor its top card."""
    return [
        (i, j) for i, j in links if (cards[i].code == RED_THREE) == (cards[j].code == RED_THREE)
    ]


def _step_links(pairs: tuple[np.ndarray, np.ndarray, np.ndarray]) -> list[tuple[int, int]]:
    """Pairs of cards read the same way up whose indices lie a fan's step apart (``pairs``:
    :func:`_pair_distances`)."""
    sideways, down, same_way = pairs
    linked = same_way & (sideways <= STEP_SIDEWAYS) & (down <= STEP_DOWN)
    rows, cols = np.nonzero(np.triu(linked, k=1))
    return list(zip(rows.tolist(), cols.tolist(), strict=True))


def _close_groups(
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray], groups: Sequence[Sequence[int]]
) -> set[int]:
    """Positions in ``groups`` of the groups that lie within NEAR of another one."""
    if len(groups) < 2:
        return set()
    sideways, down, same_way = pairs
    near = same_way & (sideways <= NEAR) & (down <= NEAR)
    owner = np.full(len(sideways), -1)
    for n, members in enumerate(groups):
        owner[list(members)] = n
    rows, cols = np.nonzero(near)
    return {
        int(owner[i])
        for i, j in zip(rows, cols, strict=True)
        if owner[i] >= 0 and owner[j] >= 0 and owner[i] != owner[j]
    }


def _pair_distances(layout: _Layout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every pair of cards: how far apart their indices lie sideways (in card widths) and
    downwards (in card heights) in the pair's own axes, and whether they read the same way."""
    u, _ = _axes(layout.angles)
    mean = u[:, None] + u[None]  # the pair's reading direction
    mean /= np.maximum(np.linalg.norm(mean, axis=2, keepdims=True), 1e-12)
    across = np.stack([-mean[..., 1], mean[..., 0]], axis=-1)
    d = layout.anchors[None] - layout.anchors[:, None]
    width = (layout.widths[:, None] + layout.widths[None]) / 2
    height = (layout.heights[:, None] + layout.heights[None]) / 2
    sideways = np.abs((d * mean).sum(axis=2)) / width
    down = np.abs((d * across).sum(axis=2)) / height
    same_way = _angle_gap(layout.angles[:, None], layout.angles[None]) <= SAME_WAY
    return sideways, down, same_way


def _fan_angle(layout: _Layout, members: Sequence[int]) -> float:
    """How a fan's cards read: the line of their indices where it is clear (sharper than
    single angles), else the mean of their reading angles."""
    reading = mean_angle(layout.angles[list(members)])
    if len(members) < 2:
        return reading
    points = layout.anchors[list(members)]
    centred = points - points.mean(axis=0)
    _, spread, directions = np.linalg.svd(centred, full_matrices=False)
    size = float(np.median(layout.widths[list(members)]))
    if spread[0] / np.sqrt(len(members)) < LINE_MIN_SPREAD * size:
        return reading  # a squared stack: no line
    line = float(np.degrees(np.arctan2(directions[0, 1], directions[0, 0])))
    # The line runs along u (sideways fan) or along v (cascade), either way round.
    best = min(
        (line + turn for turn in (0.0, 90.0, 180.0, 270.0)), key=lambda a: _angle_gap(a, reading)
    )
    return float(best % 360.0) if _angle_gap(best, reading) <= LINE_AGREE else reading


def _top_miss(layout: _Layout, top: int, fan_angle: float, fan: Sequence[int]) -> float:
    """How far (in :data:`TOP_REACH` units) the top-left index of card ``top``, read from its
    bottom-right one, lies from the nearest index of ``fan``, whose cards read ``fan_angle``."""
    u, v = _axes(fan_angle)
    along, down = layout.offset
    # Read upside down, the top-left index lies twice the index-to-centre offset back.
    corner = layout.anchors[top] - 2 * (
        along * layout.widths[top] * u + down * layout.heights[top] * v
    )
    d = corner - layout.anchors[list(fan)]
    sideways = np.abs(d @ u) / layout.widths[list(fan)]
    downwards = np.abs(d @ v) / layout.heights[list(fan)]
    return float(np.min(np.maximum(sideways, downwards)) / TOP_REACH)


def _top_links(layout: _Layout, fans: list[list[int]]) -> list[tuple[int, int]]:
    """Lone cards that are the top card of a fan, read from their far index."""
    angles = [_fan_angle(layout, fan) for fan in fans]
    candidates = []
    for b, lone in enumerate(fans):
        if len(lone) != 1:
            continue  # two cards reading upside down against a fan are another fan
        top = lone[0]
        for a, fan in enumerate(fans):
            if a == b or _angle_gap(angles[a] + 180.0, layout.angles[top]) > FLIPPED:
                continue
            if len(fan) > 1:
                miss = _top_miss(layout, top, angles[a], fan)
            elif a > b:
                continue  # two lone cards: either may be the top one, so try both once
            else:
                angle = mean_angle([angles[a], layout.angles[top] + 180.0])
                miss = min(
                    _top_miss(layout, top, angle, fan),
                    _top_miss(layout, fan[0], angle + 180.0, lone),
                )
            if miss <= 1.0:
                candidates.append((miss, a, b))
    taken: set[int] = set()
    links = []
    for _, a, b in sorted(candidates):
        if a not in taken and b not in taken:
            taken.update((a, b))
            links.append((fans[a][0], fans[b][0]))
    return links


def _components(count: int, links: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Connected components, each sorted, in order of their first member."""
    parent = list(range(count))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i, j in links:
        a, b = root(i), root(j)
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for k in range(count):
        groups.setdefault(root(k), []).append(k)
    return list(groups.values())


# -- orders --------------------------------------------------------------------------------------


def _card_key(card: CardReading) -> tuple:
    """A total order on readings that depends on what they hold, never on input order."""
    x, y = index_centre(card)
    return (y, x, card.angle, card.code, -card.confidence, card.polygon, card.check)


def _card_group(
    layout: _Layout, cards: Sequence[CardReading], members: list[int], doubt: str | None = None
) -> CardGroup:
    """The group's cards in fan order: the majority's reading direction gives the fan's axes;
    the bottom card's index comes first along them (a top card read from its far index, whose
    index lies beyond every other, last)."""
    u_all, _ = _axes(layout.angles[members])
    majority = u_all @ _axes(mean_angle(layout.angles[members]))[0] >= 0
    upright = [m for m, keep in zip(members, majority, strict=True) if keep] or members
    u, v = _axes(_fan_angle(layout, upright))
    points = layout.anchors[members]
    sideways = np.ptp(points @ u) >= np.ptp(points @ v)
    first, second = (u, v) if sideways else (v, u)
    order = sorted(
        range(len(members)),
        key=lambda k: (
            cards[members[k]].code == LADY,  # a Lady caps its group
            round(float(points[k] @ first), 6),
            round(float(points[k] @ second), 6),
            k,
        ),
    )
    group = tuple(cards[members[k]] for k in order)
    corners = np.array([point for card in group for point in card.polygon], dtype=np.float32)
    hull = cv2.convexHull(corners).reshape(-1, 2)
    return CardGroup(group, tuple((float(x), float(y)) for x, y in hull), doubt)


def _centre(points: Sequence[Point]) -> np.ndarray:
    return np.asarray(points, dtype=np.float64).mean(axis=0)


def _reading_key(centre: np.ndarray, row: float) -> tuple[int, float, float]:
    x, y = (float(value) for value in centre)
    return (int(np.floor(y / row)), x, y)


def _in_reading_order(cards: list[CardReading], row: float) -> list[CardReading]:
    return sorted(cards, key=lambda c: (_reading_key(_centre(c.polygon), row), _card_key(c)))

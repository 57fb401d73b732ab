"""Where a fan's unread card should lie: the places between two of its read indices that lie
two or three fan steps apart, and the marks on its line of indices read as no index, looked at
as its indices are (pure numpy).

Players fan a meld's cards evenly: each card is laid a like step past the one beneath it, so
the indices along the fan's edge lie evenly spaced. Where the recogniser reads two of them twice
or three times that step apart, and nothing in between, a card between them was not read: its
index lay too close to a neighbour's for the locator to part them, or was paired away as
another card's corner: a good share of the cards missed lie so (model/experiments/gaps.md).

The places are only where to look: the recogniser reads each with the classifier, as it
reads every index, and counts a card only where one is read there surely (``recogniser.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from scanner.vision.cards import WORD_CODES, corner_pairs, repeats_any
from scanner.vision.decode import IndexCandidate, angle_gap
from scanner.vision.grouping import mean_angle

# Each chosen in model/experiments/gaps.md:
FAN_TURN = 40.0  # degrees: a fan's indices read alike; a top card read from its far corner does not
MIN_STEP = 0.75  # index extents along the fan: nearer than this, one index covers the other
UNIT = 1.45  # shortest steps: the steps up to this long are steps over no missed card
FEWEST = 1.6  # steps: a gap shorter than this holds no card
SLACK = 0.25  # steps: a gap this far off a whole number of steps may hold either number
STEP_TURN = 25.0  # degrees: how far a gap's direction may be off the fan's step
MOST_MISSED = 2  # cards missed in a row that a gap is searched for (three found no more)
CLEAR = 0.6  # index heights: a place with a card read this near holds that card already
# A mark read "not an index" on a fan's line of indices (within STRAY_ACROSS of their height
# across it, at most STRAY_BEYOND of its shortest step past its end cards, read within
# STRAY_TURN of the way the fan reads) is read again moved onto the line, turned and sized as the
# fan's indices are: the locator marks a bare rank whose suit sign lies far below it alone and
# turned, and the crop so cut reads as no index.
STRAY_TURN = 90.0  # degrees: a fan's top card read at its far corner reads 180° from its fan
STRAY_ACROSS = 0.75  # index heights
STRAY_BEYOND = 1.5  # fan steps
# … and where it lies too, where it lies more than STRAY_OWN of their height off its place on the
# line and less than CLEAR (the surer card of the two counts, never both): a line fitted through a
# few wobbling indices runs a third of an index's width off the next one.
STRAY_OWN = 0.05  # index heights
STRAY_HEAT = 0.2  # faint marks from this heat read as no card are looked at so too
WALK_HEAT = 0.1  # a fan that gained a card is walked again, its fainter marks from this heat


def fan_gaps(fan: Sequence[IndexCandidate], read: Sequence[IndexCandidate]) -> list[IndexCandidate]:
    """The places of cards missed in ``fan`` (the index marks of one meld's cards, in any
    order), none within CLEAR of an index in ``read`` (every index read as a card)."""
    return clear_of(_gaps(fan), read)


def fan_strays(
    fan: Sequence[IndexCandidate],
    unread: Sequence[IndexCandidate],
    read: Sequence[IndexCandidate],
    where_they_lie: bool = True,
) -> list[IndexCandidate]:
    """Where the marks ``unread`` (read "not an index", or faint and read as no card) that lie
    on ``fan``'s line of indices would be read as the fan's cards are: moved across onto the
    line, turned the way the fan reads and sized as its indices, and, with ``where_they_lie``,
    where they lie too (see STRAY_OWN), none within CLEAR of an index in ``read``.

    The locator may mark a fan's card turned or sized unlike its neighbours (a bare rank whose
    suit sign lies far below it, marked alone and 30° off), and the crop cut so reads as no
    index at all; read as its neighbours are read, it reads as the card it is."""
    marks = _same_way(fan)
    if len(marks) < 2 or not unread:
        return []
    centres, middle, axis = _line(marks)
    normal = np.array([-axis[1], axis[0]])
    along = np.sort((centres - middle) @ axis)
    steps = np.diff(along)
    step = float(steps[steps > 0].min()) if (steps > 0).any() else 0.0
    angle = mean_angle([mark.angle for mark in marks])
    height = float(np.median([mark.index_h for mark in marks]))
    width = float(np.median([mark.index_w for mark in marks]))
    places = []
    for mark in unread:
        if angle_gap(mark.angle, angle) > STRAY_TURN:
            continue
        offset = np.array((mark.x, mark.y)) - middle
        at = float(offset @ axis)
        if abs(float(offset @ normal)) > STRAY_ACROSS * height:
            continue
        if not along[0] - STRAY_BEYOND * step <= at <= along[-1] + STRAY_BEYOND * step:
            continue
        nearest = marks[int(np.argmin(np.hypot(*(centres - (mark.x, mark.y)).T)))]
        on_line = middle + at * axis
        spots = [on_line]
        # nearer than CLEAR, a card found at one of the two keeps the other from counting again
        off = math.dist(on_line, (mark.x, mark.y))
        if where_they_lie and STRAY_OWN * height < off < CLEAR * height:
            spots.append(np.array((mark.x, mark.y)))
        places += [
            replace(
                nearest,
                score=0.0,
                x=float(x),
                y=float(y),
                angle=angle,
                index_h=height,
                index_w=width,
                card_x=float(x) + nearest.card_x - nearest.x,
                card_y=float(y) + nearest.card_y - nearest.y,
            )
            for x, y in spots
        ]
    return clear_of(places, read)


def clear_of(
    places: Sequence[IndexCandidate], read: Sequence[IndexCandidate]
) -> list[IndexCandidate]:
    """``places`` less those within CLEAR of an index in ``read``."""
    taken = np.array([(mark.x, mark.y) for mark in read], np.float64).reshape(-1, 2)
    return [
        place
        for place in places
        if not (np.hypot(*(taken - (place.x, place.y)).T) < CLEAR * place.index_h).any()
    ]


def read_already(
    place: IndexCandidate, code: str, read: Sequence[IndexCandidate], codes: Sequence[str]
) -> bool:
    """Whether the card read as ``code`` at ``place`` is one of those read already (the
    indices ``read``, read as ``codes``): a place within CLEAR of one of them, or, for a word
    printed down the corner (the joker's JOKER), a place on that word's index as a second mark
    of one index counts once (``cards.py``, SAME_CODE_DOWN): a fan's step lands on the lower
    half of a tall word, which reads as the word again. A rank read so near a card of its rank
    is kept: those are the cards of a fan of one rank, whose indices lie that close, and what the
    gaps find most often (model/experiments/gaps.md).

    Nor is a card that lies as the other corner of a card read already in its code
    (``corner_pairs``): a fan's top card read at its far corner and grouped
    with the fan shows its top-left index on the fan's line, where a faint mark on it was read
    again as the fan's cards are, and the card counted twice (a joker, a JESTER)."""
    if not clear_of([place], read):
        return True
    if code in WORD_CODES and repeats_any(place, code, read, codes):
        return True
    alike = [other for other, other_code in zip(read, codes, strict=True) if other_code == code]
    return bool(alike) and bool(corner_pairs([place, *alike])[0, 1:].any())


def _extents(mark: IndexCandidate, directions: np.ndarray) -> np.ndarray:
    """How far ``mark``'s index reaches along each of ``directions`` [n, 2] (any lengths),
    from one side to the other."""
    u, v = (np.array(axis) for axis in mark.axes)
    unit = directions / np.maximum(np.hypot(*directions.T), 1e-9)[:, None]
    return np.abs(unit @ u) * mark.index_w + np.abs(unit @ v) * mark.index_h


def _gaps(fan: Sequence[IndexCandidate]) -> list[IndexCandidate]:
    """The places between ``fan``'s marks that lie a whole number of steps apart."""
    marks = _along(_same_way(fan))
    if len(marks) < 3:  # two marks give a gap, but no step to measure it by
        return []
    # steps are measured between the indices' top-left corners: a joker's word printed down
    # the corner is marked taller than a rank, so its centre lies lower than its neighbours'
    steps = np.diff(_corners(marks), axis=0)
    extent = float(np.median(np.concatenate([_extents(mark, steps) for mark in marks])))
    marks = _apart(marks, MIN_STEP * extent)
    if len(marks) < 3:
        return []
    steps = np.diff(_corners(marks), axis=0)
    lengths = np.hypot(*steps.T)
    single = lengths <= UNIT * lengths.min()  # the steps over no missed card
    step = float(np.median(lengths[single]))
    direction = math.degrees(math.atan2(*steps[single].sum(axis=0)[::-1]))
    height = float(np.median([mark.index_h for mark in marks]))
    width = float(np.median([mark.index_w for mark in marks]))
    places = []
    for k, (length, (dx, dy)) in enumerate(zip(lengths, steps, strict=True)):
        if angle_gap(math.degrees(math.atan2(dy, dx)), direction) > STEP_TURN:
            continue
        for count in _counts(length / step):
            if length / count < MIN_STEP * extent:  # a card's index there would be covered
                continue
            places += [
                _between(marks[k], marks[k + 1], j / count, height, width) for j in range(1, count)
            ]
    return places


def _corners(marks: Sequence[IndexCandidate]) -> np.ndarray:
    return np.array([mark.index_quad()[0] for mark in marks], np.float64)


def _counts(ratio: float) -> list[int]:
    """How many steps a gap ``ratio`` steps long may span: the nearest whole number, and the
    next nearest too where the gap lies more than SLACK off it (one step measured alone is
    a millimetre or two off); only those of 2 to MOST_MISSED + 1 steps."""
    if ratio < FEWEST:
        return []
    nearest = round(ratio)
    counts = [nearest]
    if abs(ratio - nearest) > SLACK:
        counts.append(nearest + (1 if ratio > nearest else -1))
    return [count for count in counts if 2 <= count <= MOST_MISSED + 1]


def _apart(marks: list[IndexCandidate], nearest: float) -> list[IndexCandidate]:
    """``marks`` (in order along their line) less each whose index corner lies within
    ``nearest`` of the one kept before it: an index that close is covered, or read twice."""
    kept: list[IndexCandidate] = []
    for mark in marks:
        if not kept or math.dist(mark.index_quad()[0], kept[-1].index_quad()[0]) >= nearest:
            kept.append(mark)
    return kept


def _same_way(fan: Sequence[IndexCandidate]) -> list[IndexCandidate]:
    """The marks of ``fan`` that read the way most of it reads."""
    if not fan:
        return []
    mean = mean_angle([mark.angle for mark in fan])
    return [mark for mark in fan if angle_gap(mark.angle, mean) <= FAN_TURN]


def _line(marks: Sequence[IndexCandidate]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centres of ``marks`` [n, 2], their mean, and the unit direction of the line they lie
    on (their principal axis); at least two marks."""
    centres = np.array([(mark.x, mark.y) for mark in marks], np.float64)
    middle = centres.mean(axis=0)
    return centres, middle, np.linalg.svd(centres - middle, full_matrices=False)[2][0]


def _along(marks: list[IndexCandidate]) -> list[IndexCandidate]:
    """``marks`` in order along the line they lie on (their principal axis)."""
    if len(marks) < 2:
        return marks
    centres, middle, axis = _line(marks)
    return [marks[k] for k in np.argsort((centres - middle) @ axis, kind="stable")]


def _between(
    first: IndexCandidate, second: IndexCandidate, share: float, height: float, width: float
) -> IndexCandidate:
    """A mark of the fan's index ``height`` and ``width`` whose top-left corner lies ``share``
    of the way from ``first``'s to ``second``'s; its angle and card in between theirs."""

    def mix(a: float, b: float) -> float:
        return a + (b - a) * share

    turn = (second.angle - first.angle + 180.0) % 360.0 - 180.0
    place = replace(
        first,
        score=0.0,
        angle=(first.angle + turn * share) % 360.0,
        index_h=height,
        index_w=width,
        card_w=mix(first.card_w, second.card_w),
        card_h=mix(first.card_h, second.card_h),
    )
    (ux, uy), (vx, vy) = place.axes
    (x0, y0), (x1, y1) = _corners([first, second])
    x = mix(x0, x1) + width / 2 * ux + height / 2 * vx
    y = mix(y0, y1) + width / 2 * uy + height / 2 * vy
    # the card lies where each neighbour's lies from its own index
    card_x = x + mix(first.card_x - first.x, second.card_x - second.x)
    card_y = y + mix(first.card_y - first.y, second.card_y - second.y)
    return replace(place, x=x, y=y, card_x=card_x, card_y=card_y)

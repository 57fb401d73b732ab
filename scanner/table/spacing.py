"""Does a fan look whole? Its cards step evenly, so a gap about twice the usual step says a card
between was not read, and two indices much closer than the usual step say one card was read
twice; and its top card lies in full view, so where its far corner was not read, a card lying on
it may not have been read either (pure functions).

A card the recogniser misses is otherwise invisible in the result: the meld is one card short
and nothing says "check". The spacing of the cards that were read is the only trace it leaves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from statistics import median

from scanner.vision.cards import CardReading
from scanner.vision.decode import angle_gap

GAP = 1.6  # a step this many times the fan's usual step hides a card
CROWDED = 0.45  # a step this small is one card read twice
SAME_WAY = 45.0  # cards read within this of the fan's way up take part; a top card read from its
# far corner lies elsewhere and does not


def _centre(card: CardReading) -> tuple[float, float]:
    x0, y0, x1, y1 = card.index_box
    return (x0 + x1) / 2, (y0 + y1) / 2


def fan_doubt(cards: Sequence[CardReading]) -> str | None:
    """A sentence for the players when the fan's spacing looks wrong, else None. ``cards`` in
    fan order (as grouping gives them)."""
    if len(cards) < 3:
        return None
    way = cards[0].angle
    upright = [card for card in cards if angle_gap(card.angle, way) <= SAME_WAY]
    if len(upright) < 3:
        return None
    centres = [_centre(card) for card in upright]
    steps = [math.dist(a, b) for a, b in pairwise(centres)]
    usual = median(steps)
    if usual <= 0:
        return None
    for n, step in enumerate(steps):
        if step < CROWDED * usual:
            return f"{upright[n].code} may be counted twice: count this meld"
    # Against the shortest step, so that one gap in three cards still stands out.
    shortest = min(steps)
    for n, step in enumerate(steps):
        if step > GAP * shortest:
            before, after = upright[n].code, upright[n + 1].code
            return f"a card may be missing between {before} and {after}: count this meld"
    return None


def top_doubt(cards: Sequence[CardReading]) -> str | None:
    """A sentence for the players when the fan's top card (the last in fan order) was read at
    its top-left corner alone, else None. The top card lies in full view, so its far corner is
    read too unless something lies on it: most often a card not read, such as the wild cards
    ending a meld. Read from its far corner, it shows nothing lies there. On 80 one-side tables
    (`handfoot synth --layout side`) no table read right had such a top card."""
    if len(cards) < 2:
        return None
    top = cards[-1]
    if top.corners >= 2 or angle_gap(top.angle, cards[0].angle) > SAME_WAY:
        return None
    return (
        f"{top.code} on top was read at one corner only: a card lying on it may not have been "
        "read: count this meld"
    )

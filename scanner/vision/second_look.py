"""A frame in which no card was read, looked at again at other sizes (pure).

The locator learnt cards as busy tables show them. A card lying alone in a small photo, large
and turned, is now and then not marked at all at the size the photo comes in, yet marked and
read surely in the same photo scaled up. Scaled up, a photo of no card shows the locator its
patterns larger too, so the second look keeps only the cards it reads without a check. A busy
frame always reads some card as it comes, so the second look costs it nothing. A large frame
(a million pixels or more) is looked at again smaller, not larger: scaled up it takes far longer
to read, and a large photo is the one whose cards may be larger than any the locator learnt.
The figures: model/experiments/second-look.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from scanner.vision.cards import CardReading
from scanner.vision.large_frame import SMALLEST_SIDE, alike

# Each chosen in model/experiments/second-look.md:
SECOND_LOOK_SCALES = (1.6, 2.0)  # a small frame's, tried in turn, the first that reads a card kept
LARGE_FRAME_SCALES = (0.5, 0.33)  # a large frame's, likewise
# … and a small frame's first, before it is scaled up: a phone photo of a card or two close up
# holds indices larger than any the locator learnt (second-look.md, real-train)
SMALL_FRAME_DOWN = (0.5, 0.33)
SMALL_FRAME = 1_000_000  # pixels: a frame this large or larger is looked at again smaller


def second_look_factors(
    frame_size: tuple[int, int],
    most_pixels: float,
    looked: Sequence[float] = (1.0,),
    smaller: bool = True,
) -> tuple[float, ...]:
    """The factors to read a frame of ``frame_size`` (width, height) at once nothing was read
    in it at the factors ``looked`` (as it came, or also, for a frame larger than the locator
    learnt, its preview: ``large_frame.py``).

    A frame under SMALL_FRAME pixels: with ``smaller``, first each of SMALL_FRAME_DOWN that
    leaves its short side SMALLEST_SIDE px or more; then each of SECOND_LOOK_SCALES, held so
    that the frame stays within ``most_pixels``, none that would not scale it up. A larger
    one: each of LARGE_FRAME_SCALES times each factor looked at, largest first, that leaves its
    short side SMALLEST_SIDE px or more and reads unlike every factor looked at
    (``large_frame.alike``)."""
    width, height = frame_size
    if width * height >= SMALL_FRAME:
        factors = sorted({scale * seen for scale in LARGE_FRAME_SCALES for seen in looked})
        return tuple(
            factor
            for factor in reversed(factors)
            if factor * min(width, height) >= SMALLEST_SIDE
            and not any(alike(factor, seen) for seen in looked)
        )
    room = math.sqrt(most_pixels / max(1, width * height))
    factors: list[float] = []
    if smaller:
        factors += [f for f in SMALL_FRAME_DOWN if f * min(width, height) >= SMALLEST_SIDE]
    for scale in SECOND_LOOK_SCALES:
        factor = min(scale, room)
        if factor > 1.0 and factor not in factors:
            factors.append(factor)
    return tuple(factors)


def standing(cards: Iterable[CardReading]) -> tuple[CardReading, ...]:
    """The cards a second look keeps: those read without asking for a check."""
    return tuple(card for card in cards if not card.check)

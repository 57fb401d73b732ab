"""A frame in which no card was read, looked at again larger (pure).

The locator learnt cards as busy tables show them. A card lying alone in a small photo, large
and turned, is now and then not marked at all at the size the photo comes in, yet marked and
read surely in the same photo scaled up. Of the 363 real photos (most 504×378 px), 6 read no
card at all, each a single card on a carpet, a book or a table, and 5 of them read their card
right scaled up by 1.6 or by 2. Scaled up, a photo of no card shows the locator its patterns
larger too: on 73 halves of those photos that hold no card, such a second look read 5 cards on
nothing, 4 of them asking for a check; so it keeps only the cards it reads without one. A busy
frame always reads some card as it comes, so the second look costs it nothing. Only a small
frame is looked at again: a frame of an empty table is read up to three times, which for a
camera's 1280×960 frame took 1.6 s against 0.13 s on one core, and what the second look finds
are cards in small photos.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from scanner.vision.cards import CardReading

SECOND_LOOK_SCALES = (1.6, 2.0)  # tried in turn, the first that reads a card kept
SMALL_FRAME = 1_000_000  # pixels: a frame this large or larger is not looked at again


def second_look_factors(frame_size: tuple[int, int], most_pixels: float) -> tuple[float, ...]:
    """The factors to read a frame of ``frame_size`` (width, height) at once nothing was read
    in it as it came: each of SECOND_LOOK_SCALES, held so that the frame stays within
    ``most_pixels``; none that would not scale it up, and none for a frame of SMALL_FRAME
    pixels or more."""
    width, height = frame_size
    if width * height >= SMALL_FRAME:
        return ()
    room = math.sqrt(most_pixels / max(1, width * height))
    factors: list[float] = []
    for scale in SECOND_LOOK_SCALES:
        factor = min(scale, room)
        if factor > 1.0 and factor not in factors:
            factors.append(factor)
    return tuple(factors)


def standing(cards: Iterable[CardReading]) -> tuple[CardReading, ...]:
    """The cards a second look keeps: those read without asking for a check."""
    return tuple(card for card in cards if not card.check)

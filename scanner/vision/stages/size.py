"""Stage ``size``: the scales a frame is read at, and the frame scaled to one of them.

The size policy proposes a scale, the stages read the frame there, and the policy, seeing what
was read, proposes another or keeps a reading (:class:`SizePolicy`). A frame larger than the
locator learnt is read first as a preview, then at the size its indices call for
(``large_frame.py``); a frame of large indices also smaller, the reading with more cards kept;
a frame of small indices again scaled up (``scale.py``: :func:`scale_up`, judged once the
marks are read and rechecked); a frame in which no card is read at other sizes
(``second_look.py``), and then, all over again, as its negative: light print on dark cards;
a frame that reads few cards smaller too, as the close-up it may be (``large_frame.py``:
:func:`close_up_factors`);
a frame that reads cards and holds dark surface enough for a card, as its negative too, its
cards clear of the frame's own added (``dark_cards.py``). Each rule is a switch of
:class:`ReadOptions`.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from scanner.vision.dark_cards import DarkSurface, joined
from scanner.vision.large_frame import (
    close_up_factors,
    factor_from_preview,
    preview_factor,
    smaller_factor,
)
from scanner.vision.scale import SIZES_SURE, reading_scale, scaled_frame, sure_index_sizes
from scanner.vision.second_look import second_look_factors, standing
from scanner.vision.stages.records import FrameContext, Scale, Work

if TYPE_CHECKING:
    from scanner.vision.contract import Contract
    from scanner.vision.options import ReadOptions
    from scanner.vision.reading import Reading

NAME = "size"


def run(context: FrameContext, work: Work) -> Work:
    """The frame at the context's scale (scaled twice where it is read again scaled up, as
    the frame read first was)."""
    scale = context.scale
    frame = context.frame
    if scale.region is not None:
        x0, y0, x1, y1 = scale.region
        frame = np.ascontiguousarray(frame[y0:y1, x0:x1])
    image = frame if scale.factor == 1.0 else scaled_frame(frame, scale.factor)
    if scale.again != 1.0:
        image = scaled_frame(image, scale.again)
    if scale.negative:
        image = 255 - image
    return replace(work, image=image)


def scale_up(context: FrameContext, work: Work) -> float:
    """The factor to read the frame at again, scaled up, from the indices read at this scale
    as cards (1.0: as it is). Two unsure corners that agree on a card (``corners_agree``) are
    no measure of its size."""
    measured = [r for r in work.readings if r.read_by != "corners_agree"]
    return reading_scale(measured, work.bounds, context.contract)


class SizePolicy:
    """The scales one frame is read at, in turn: read the frame at :attr:`proposed`, give the
    reading to :meth:`read`, until nothing more is proposed; then :attr:`kept` is the frame's
    reading. ``dark``: where the frame is dark enough to be a dark card's paper (None: not
    measured, the rule ``dark_cards`` off)."""

    def __init__(
        self,
        frame_size: tuple[int, int],
        contract: Contract,
        options: ReadOptions,
        dark: DarkSurface | None = None,
    ) -> None:
        self._steps = _scales(frame_size, contract, options, dark)
        self.proposed: Scale | None = next(self._steps)
        self.kept: Reading | None = None

    def read(self, reading: Reading) -> None:
        """What the frame read at :attr:`proposed`."""
        try:
            self.proposed = self._steps.send(reading)
        except StopIteration as done:
            self.proposed, self.kept = None, done.value


def reads_more(again: Reading, reading: Reading) -> bool:
    """Whether ``again`` (the frame read at another size) reads more than ``reading``: more
    corners of cards read without a check; as many, of more codes; as many of as many codes,
    as fewer cards. A card larger than the locator learnt is at times read at both corners as
    two cards where its neighbour is missed; and a lone card's two large corners, each
    predicting a card too small, were counted as two cards, the card read smaller (where they
    pair) read as fewer and set aside (model/experiments/close-up.md)."""
    more, first = standing(again.cards), standing(reading.cards)
    corners = sum(c.corners for c in more), sum(c.corners for c in first)
    if corners[0] != corners[1]:
        return corners[0] > corners[1]
    codes = len({c.code for c in more}), len({c.code for c in first})
    if codes[0] != codes[1]:
        return codes[0] > codes[1]
    return len(more) < len(first)


def _kept_smaller(
    reading: Reading, scale: Scale, factors: tuple[float, ...]
) -> Generator[Scale, Reading, Reading]:
    """``reading`` or, read at each of ``factors`` in turn (``scale`` with that factor), the
    reading that reads more (``reads_more``)."""
    for factor in factors:
        again = yield replace(scale, factor=factor)
        if reads_more(again, reading):
            reading = again
    return reading


def _sure_sizes(reading: Reading, contract: Contract) -> list[float]:
    """The short sides of the indices ``reading`` read as cards at least SIZES_SURE sure, in
    the frame's own pixels: what the scale a frame is read at is judged by."""
    return sure_index_sizes(reading.indices, contract.not_an_index, SIZES_SURE)


def _scales(
    frame_size: tuple[int, int],
    contract: Contract,
    options: ReadOptions,
    dark: DarkSurface | None,
) -> Generator[Scale, Reading, Reading]:
    """Proposes scales, is sent what each read, and returns the reading kept: the frame's own,
    with the dark cards its negative reads clear of its own where it holds ``dark`` surface
    enough for one; or, where it reads nothing, its negative's cards read without a check,
    each then asking for one (a dark card's colour reads unsurely:
    model/experiments/second-look.md)."""
    reading = yield from _looks(frame_size, contract, options, negative=False)
    if reading.cards and dark is not None and dark.may_hold_dark_cards:
        region = dark.card_region(reading.cards, frame_size)
        if region is None:
            return reading
        part = Scale(
            reading.scale,
            scale_up=False,
            negative=True,
            region=region,
            recheck=not options.dark_cards_sure,
        )
        negative = yield part
        if options.close_up and reading.scale <= 1.0:
            # a close-up of dark cards: their indices too may be larger than the locator reads
            size = (region[2] - region[0], region[3] - region[1])
            cards = len(standing(reading.cards)) + len(standing(negative.cards))
            factors = close_up_factors(cards, reading.scale, size, [reading.scale])
            negative = yield from _kept_smaller(negative, part, factors)
        return joined(reading, negative, dark)
    if reading.cards or not options.negative:
        return reading
    negative = yield from _looks(frame_size, contract, options, negative=True)
    cards = standing(negative.cards)
    if not cards:
        return reading
    return replace(negative, cards=tuple(replace(card, check=True) for card in cards))


def _looks(
    frame_size: tuple[int, int], contract: Contract, options: ReadOptions, negative: bool
) -> Generator[Scale, Reading, Reading]:
    """The scales of the frame (or of its ``negative``), as the size rules propose them."""
    scale_up = options.scale_up
    preview = preview_factor(frame_size) if options.preview else None
    if preview is None:
        reading = yield Scale(1.0, scale_up, negative=negative)
        looked = [1.0]
        # indices larger than the locator reads well: also read smaller, the reading with more
        # cards read without a check kept
        if reading.cards and reading.scale == 1.0 and options.smaller:
            factor = smaller_factor(_sure_sizes(reading, contract), frame_size)
            if factor is not None:
                again = yield Scale(factor, scale_up, negative=negative)
                if reads_more(again, reading):
                    reading = again
    else:
        # a frame larger than the locator learnt: its preview first, then the frame at the
        # size the preview's indices call for; the preview's reading where only it read cards,
        # or where it reads more (indices larger than the locator learnt are measured small,
        # and call for a size that reads them worse)
        reading = yield Scale(preview, scale_up=False, negative=negative)
        looked = [preview]
        factor = factor_from_preview(_sure_sizes(reading, contract), preview)
        if factor != preview:
            again = yield Scale(factor, scale_up, negative=negative)
            if not (reading.cards and not again.cards) and not reads_more(reading, again):
                reading = again
            looked.append(factor)
    if reading.cards and options.close_up and reading.scale <= 1.0:
        # few cards read: a close-up's indices may be larger than the locator measures them,
        # so it is read smaller too, the reading with more cards read without a check kept
        factors = close_up_factors(len(standing(reading.cards)), reading.scale, frame_size, looked)
        looked.extend(factors)
        reading = yield from _kept_smaller(
            reading, Scale(1.0, scale_up, negative=negative), factors
        )
    if reading.cards or reading.scale not in looked or not options.second_look:
        return reading  # cards read, or read scaled up for small indices already
    scales = second_look_factors(
        frame_size, contract.scale_up_pixels, looked, smaller=options.look_smaller
    )
    for factor in scales:
        again = yield Scale(factor, scale_up, negative=negative)
        looked.append(factor)
        cards = standing(again.cards)
        if not cards:
            continue
        again = replace(again, cards=cards)
        if options.close_up and again.scale <= 1.0:
            # found smaller: the close-up it may be is read smaller still, as above
            factors = close_up_factors(len(cards), again.scale, frame_size, looked)
            scale = Scale(1.0, scale_up, negative=negative)
            again = yield from _kept_smaller(again, scale, factors)
        return replace(again, cards=standing(again.cards))
    return reading

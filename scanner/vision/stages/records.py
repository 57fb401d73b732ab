"""The records a frame's reading passes between its stages: what is fixed for the frame
(:class:`FrameContext`) and what the stages have made of it so far (:class:`Work`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from scanner.vision.cards import CardReading, IndexReading
from scanner.vision.contract import Contract
from scanner.vision.decode import IndexCandidate
from scanner.vision.grouping import CardGroup
from scanner.vision.ink_colour import frame_white
from scanner.vision.networks import Networks
from scanner.vision.options import ReadOptions
from scanner.vision.profile import Profile


@dataclass(frozen=True)
class Scale:
    """A scale to read a frame at, as the size policy proposes it: the frame is scaled by
    ``factor``, then by ``again`` (a frame of small indices read again scaled up; 1.0 when
    not). ``scale_up``: whether the indices read at this scale may still call for that.
    ``negative``: the frame read as its negative (light print on dark cards). ``region``: only
    this box of the frame as it came (x0, y0, x1, y1) read; None: the whole frame. ``recheck``:
    whether doubtful marks are read again (``stages/recheck.py``)."""

    factor: float
    scale_up: bool = True
    again: float = 1.0
    negative: bool = False
    region: tuple[int, int, int, int] | None = None
    recheck: bool = True

    @property
    def total(self) -> float:
        """The factor from the frame as it came to the frame as read."""
        return self.again * self.factor

    def then(self, factor: float) -> Scale:
        """This scale, read again scaled up by ``factor``, and no further."""
        return replace(self, scale_up=False, again=factor)


@dataclass(frozen=True)
class FrameContext:
    """What is fixed while one frame is read at one scale: the frame as it came, the scale,
    the deck the rules play (None: whichever the frame reads), whether its cards may lie in
    melds, the recogniser's contract, options and networks, and the deck profile read with."""

    frame: np.ndarray
    scale: Scale
    expected: str | None
    melds: bool
    contract: Contract
    options: ReadOptions
    nets: Networks
    profile: Profile | None = None  # the table's deck, taught (profile.py)
    # the frame's white where the recogniser measured it already (for ``dark_cards``)
    known_white: np.ndarray | None = None

    @property
    def wider_below(self) -> float:
        """px on an index's short side below which the wider classifier reads it, in the
        frame as read: the contract's bound in the frame as it came, scaled with it."""
        return self.contract.wider_below * self.scale.factor * self.scale.again

    @cached_property
    def white(self) -> np.ndarray:
        """The colour of the frame's brightest surfaces, what a dark card's print is balanced
        by (``ink_colour.py``): measured once a frame, where asked."""
        return frame_white(self.frame) if self.known_white is None else self.known_white

    @property
    def none(self) -> str:
        """The class that reads "not an index"."""
        return self.contract.not_an_index


@dataclass(frozen=True)
class Work:
    """What the stages have made of a frame so far, each stage filling its part."""

    image: np.ndarray | None = None  # size: the frame at the scale read
    marks: tuple[IndexCandidate, ...] = ()  # locate: the locator's marks, one per index
    # classify: the marks read in full, ``readings`` one for each until the recheck "faint"
    full: tuple[IndexCandidate, ...] = ()
    faint: tuple[IndexCandidate, ...] = ()  # classify: faint marks, read once by "faint"
    readings: tuple[IndexReading, ...] = ()
    deck: str | None = None  # classify: the deck the frame reads as
    passed_over: tuple[IndexCandidate, ...] = ()  # faint marks read as no card (for strays)
    cards: tuple[CardReading, ...] = ()  # pair: the physical cards
    melds: tuple[CardGroup, ...] = ()  # melds: the melds the cards were read in

    @property
    def bounds(self) -> tuple[int, int] | None:
        """The frame's width and height as read (None before ``size``)."""
        if self.image is None:
            return None
        height, width = self.image.shape[:2]
        return width, height

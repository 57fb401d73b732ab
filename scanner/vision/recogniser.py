"""The recogniser: the networks loaded once, then ``read(frame)`` per frame.

A frame is read at each scale the size policy proposes (``stages/size.py``), through the
stages in order:

    size → locate → classify → recheck → verify → pair → faces → melds → tidy

and the policy, seeing what each scale read, proposes another or keeps a reading. After
``recheck``, indices too small to read well send the frame back to ``size``, scaled up.
Every optional rule is a switch of :class:`ReadOptions`; ``timing_ms`` is keyed by stage.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import numpy as np

from scanner.vision.contract import Contract
from scanner.vision.dark_cards import DarkSurface
from scanner.vision.decks import check_deck
from scanner.vision.ink_colour import frame_white
from scanner.vision.networks import Networks, default_model_dir
from scanner.vision.options import ReadOptions
from scanner.vision.preprocess import check_frame, normalise
from scanner.vision.profile import Profile, Taught, learn
from scanner.vision.reading import Reading
from scanner.vision.scale import median_size, small_size, sure_index_sizes
from scanner.vision.stages import (
    classify,
    faces,
    locate,
    melds,
    pair,
    recheck,
    size,
    tidy,
    verify,
)
from scanner.vision.stages.records import FrameContext, Scale, Work
from scanner.vision.stages.size import SizePolicy

log = logging.getLogger(__name__)

# The stages a frame goes through at each scale, in order.
STAGES = (size, locate, classify, recheck, verify, pair, faces, melds, tidy)
STAGE_NAMES = tuple(stage.NAME for stage in STAGES)


class StageClock:
    """Milliseconds spent per stage, summed over every scale a frame is read at, and those
    scales."""

    def __init__(self) -> None:
        self._spent: dict[str, float] = defaultdict(float)
        self._started = time.perf_counter()
        self.looked: list[float] = []

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self._spent[name] += (time.perf_counter() - started) * 1000

    def ms(self) -> dict[str, float]:
        """Each stage's milliseconds (0 for a stage never run), and ``total``."""
        timing = {name: self._spent[name] for name in STAGE_NAMES}
        timing["total"] = (time.perf_counter() - self._started) * 1000
        return timing


class Recogniser:
    """Reads the cards in a frame with the networks of one model folder.

    Build it with :meth:`load` (networks are loaded once and warmed up); call :meth:`read`
    for every frame, from one thread at a time."""

    def __init__(
        self,
        networks: Networks,
        options: ReadOptions | None = None,
        profile: Profile | None = None,
    ) -> None:
        self.networks = networks
        self.contract: Contract = networks.contract
        self.options = options or ReadOptions()
        self.profile = profile

    @classmethod
    def load(
        cls,
        model_dir: Path | str | None = None,
        threads: int = 1,
        options: ReadOptions | None = None,
        **switches,
    ) -> Recogniser:
        """The networks in ``model_dir`` (default: the ``model`` package) on ``threads``
        threads each, warmed up, reading as ``options`` say; ``switches`` change single
        options (``turns=1``, ``int8=False``, ``rescale=False``…). Raises
        :class:`RecogniserError` when a file is missing or does not follow the contract, or an
        option is unknown or out of range."""
        options = (options or ReadOptions()).changed(**switches)
        folder = Path(model_dir) if model_dir is not None else default_model_dir()
        return cls(Networks.load(folder, threads, options), options)

    @property
    def files(self) -> tuple[str, ...]:
        """The model files read, by name: which twins, for the benches."""
        return self.networks.files

    def without(self, *rules: str) -> Recogniser:
        """This recogniser with the named rules switched off, its networks shared (``int8``
        alone needs a new :meth:`load`: the networks are loaded as they are)."""
        return Recogniser(self.networks, self.options.without(*rules), self.profile)

    def learn(self, name: str, taught: Sequence[Taught]) -> Profile:
        """The deck profile of the crops ``taught`` (``profile.py``), for this recogniser's
        classifier. Raises :class:`RecogniserError` where the classifier gives no features,
        ValueError where a code is none of its classes."""
        c = self.contract

        def read(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            return self.networks.classify_with_features(normalise(crops, c))

        return learn(name, taught, c.classes, read)

    def with_profile(self, profile: Profile | None) -> Recogniser:
        """This recogniser reading with ``profile`` (None: with none), its networks shared."""
        return Recogniser(self.networks, self.options, profile)

    def read(self, frame: np.ndarray, deck: str | None = None, *, melds: bool = True) -> Reading:
        """The cards in an RGB uint8 frame [H, W, 3], each held to one deck: the deck most of
        the frame reads, where ``deck`` ("standard" or "special", the deck the rules play)
        weighs as much as three sure readings (``decks.py``). With ``melds``, the cards lying
        in a meld are read knowing that a meld's cards share a rank: leave it off for cards
        that need not (a hand's leftovers)."""
        check_deck(deck)
        check_frame(frame)
        clock = StageClock()
        # measured once for the frame: the dark surface and every scale's dark print use it
        white = frame_white(frame) if self.options.dark_cards else None
        dark = DarkSurface.of(frame, white) if white is not None else None
        sizes = SizePolicy((frame.shape[1], frame.shape[0]), self.contract, self.options, dark)
        while sizes.proposed is not None:
            context = self.context(frame, deck, melds=melds, scale=sizes.proposed, white=white)
            sizes.read(self._read_at(context, clock))
        reading = replace(sizes.kept, timing_ms=clock.ms(), looked=tuple(clock.looked))
        log.debug(
            "read %d cards in %.0f ms (scaled %.2f)",
            len(reading.cards),
            reading.timing_ms["total"],
            reading.scale,
        )
        return reading

    def _read_at(self, context: FrameContext, clock: StageClock) -> Reading:
        """The context's frame read at its scale: every stage in turn. Where the indices
        rechecked there are too small to read well, the frame is read again from the start,
        scaled up."""
        scale = context.scale
        clock.looked.append(scale.total)
        work = Work()
        for stage in STAGES:
            with clock.stage(stage.NAME):
                work = stage.run(context, work)
            if stage is recheck and scale.scale_up:
                factor = size.scale_up(context, work)
                if factor != 1.0:
                    return self._read_at(replace(context, scale=scale.then(factor)), clock)
        return self._reading(work, scale)

    def context(
        self,
        frame: np.ndarray,
        deck: str | None = None,
        *,
        melds: bool = True,
        scale: Scale | None = None,
        white: np.ndarray | None = None,
    ) -> FrameContext:
        """The context the stages read ``frame`` in at ``scale`` (``white``: the frame's, where
        measured already): what a test of one stage runs it with."""
        scale = scale or Scale(1.0)
        return FrameContext(
            frame,
            scale,
            deck,
            melds,
            self.contract,
            self.options,
            self.networks,
            self.profile,
            known_white=white,
        )

    def _reading(self, work: Work, scale: Scale) -> Reading:
        """A :class:`Reading` of the work's cards and indices (in the frame's own pixels),
        with the sizes of the indices read as cards measured."""
        c = self.contract
        sizes = sure_index_sizes(work.readings, c.not_an_index, c.min_confidence)
        return Reading(
            work.cards,
            {},
            work.deck,
            scale.total,
            work.readings,
            median_size(sizes),
            small_size(sizes),
            negative=scale.negative,
        )

    def heads(self, frame: np.ndarray) -> np.ndarray:
        """The locator's heads [1, C, H', W'] for an RGB uint8 frame [H, W, 3], averaged over
        the turns it reads the frame in: what its marks are decoded from, on the grid of the
        frame padded to the contract's multiple."""
        return self.networks.heads(frame)  # its input is cut by locator_input, which checks it

    def warm_up(self) -> None:
        """Run every network once on blank inputs (``Networks.warm_up``)."""
        self.networks.warm_up()

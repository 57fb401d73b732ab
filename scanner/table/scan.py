"""One scan, from trigger to result: take K frames, read each, vote, and ask the engine.

Capture and recognition overlap: while the recogniser reads frame k, the camera takes frame
k + 1 (onnxruntime and OpenCV release the GIL), so a three-frame scan costs little more than
three reads. Frames too dark or too blurred are not read at all: the player is told "more
light" or "hold still" rather than shown a wrong reading.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from engine import RuleSet
from scanner.camera import Frame, FrameSource, QualityProblem, check_quality
from scanner.table.modes import Mode, TableResult, interpret
from scanner.table.voting import CHECK_BELOW, Vote, vote
from scanner.vision import Reading, Recogniser
from scanner.vision.legibility import Advice, advice_for, legibility_json
from scanner.vision.recogniser import STAGE_NAMES

log = logging.getLogger(__name__)
FRAMES = 3
INTERVAL_S = 0.1  # between the end of one capture and the start of the next
DECODE_STAGES = ("pair", "faces", "melds", "tidy")  # what a scan's "decode" time sums


@dataclass(frozen=True)
class ScanSettings:
    """What a scan is for: the mode, the rules, the deal, how many frames to vote over."""

    mode: Mode = Mode.TABLE
    rules: RuleSet | None = None
    deal: int = 1
    initial: bool = False
    frames: int = FRAMES
    interval_s: float = INTERVAL_S
    check_below: float = CHECK_BELOW

    @property
    def deck(self) -> str | None:
        """The deck the table is expected to hold: the rules' (see scanner/vision/decks.py)."""
        return self.rules.deck.value if self.rules is not None else None

    @property
    def melds(self) -> bool:
        """Whether the cards lie in melds, one rank each (scanner/vision/melds.py): a hand's
        leftovers need not."""
        return self.mode is not Mode.LEFTOVERS

    def __post_init__(self) -> None:
        if self.frames < 1:
            raise ValueError(f"a scan needs at least one frame, not {self.frames}")


@dataclass(frozen=True)
class Scan:
    """A finished scan: the frames taken (the last readable one is the one to show), the vote,
    the engine's result, and — when no frame could be read — why, in the player's words."""

    frames: tuple[Frame, ...]
    readings: tuple[Reading | None, ...]  # per frame; None where the frame was not read
    vote: Vote
    result: TableResult | None
    quality: QualityProblem | None
    timing_ms: dict[str, float]

    @property
    def shown(self) -> Frame | None:
        """The frame to draw the result on: the last one that was read."""
        read = [f for f, r in zip(self.frames, self.readings, strict=True) if r is not None]
        return read[-1] if read else (self.frames[-1] if self.frames else None)

    @property
    def deck(self) -> str | None:
        """The deck the frames were read as: the one most of the read frames were read as."""
        decks = Counter(r.deck for r in self.readings if r is not None and r.deck is not None)
        return decks.most_common(1)[0][0] if decks else None

    @property
    def message(self) -> str | None:
        return self.quality.message if self.quality else None

    @property
    def index_px(self) -> float | None:
        """The median over the frames read of their median index size (frame px), or None
        where no frame read enough cards to measure it."""
        return self._median_over_frames("index_px")

    @property
    def small_px(self) -> float | None:
        """The median over the frames read of the size the smallest fifth of each frame's
        indices lie under (frame px), or None where no frame read enough cards."""
        return self._median_over_frames("small_px")

    def _median_over_frames(self, size: str) -> float | None:
        sizes = [getattr(r, size) for r in self.readings if r is not None]
        sizes = [value for value in sizes if value is not None]
        return float(np.median(sizes)) if sizes else None

    @property
    def advice(self) -> Advice | None:
        """What the players could change for a better reading, judged by ``small_px``
        (``scanner/vision/legibility.py``)."""
        return advice_for(self.small_px)

    def as_json(self) -> dict:
        cards = [voted.card.as_json() for voted in self.vote.cards]
        for card, voted in zip(cards, self.vote.cards, strict=True):
            card["seen"] = voted.seen
        data = {
            "cards": cards,
            "frames": len(self.frames),
            "frames_read": sum(r is not None for r in self.readings),
            # each frame read, the factor it was scaled by to be read (scanner/vision/scale.py)
            "scales": [round(r.scale, 3) for r in self.readings if r is not None],
            "deck": self.deck,
            "quality": None
            if self.quality is None
            else {"kind": self.quality.kind, "message": self.quality.message},
            **legibility_json(self.index_px, self.small_px),
        }
        if self.result is not None:
            data |= self.result.as_json()
        data["timing_ms"] = {stage: round(ms, 1) for stage, ms in self.timing_ms.items()}
        return data


def read_frames(frames: Sequence[Frame], recogniser: Recogniser, settings: ScanSettings) -> Scan:
    """Scan frames already taken (photos, a test's rendered scenes)."""
    started = time.perf_counter()
    deck = settings.deck
    readings = [_read(frame, recogniser, deck, settings.melds) for frame in frames]
    return _finish(tuple(frames), readings, settings, started, capture_ms=0.0)


def scan_source(
    source: FrameSource,
    recogniser: Recogniser,
    settings: ScanSettings,
    *,
    sleep: Callable[[float], None] = time.sleep,
) -> Scan:
    """Take ``settings.frames`` frames from ``source`` and scan them. Raises the source's
    CameraError when it cannot give a frame."""
    started = time.perf_counter()
    frames: list[Frame] = []
    pending: list[Future] = []
    capture_s = 0.0
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="recognise") as reader:
        for n in range(settings.frames):
            if n:
                sleep(settings.interval_s)
            taken = time.perf_counter()
            frame = source.capture()
            capture_s += time.perf_counter() - taken
            frames.append(frame)
            pending.append(reader.submit(_read, frame, recogniser, settings.deck, settings.melds))
        readings = [future.result() for future in pending]
    return _finish(tuple(frames), readings, settings, started, capture_ms=capture_s * 1000)


def _read(
    frame: Frame, recogniser: Recogniser, deck: str | None, melds: bool
) -> Reading | QualityProblem:
    problem = check_quality(frame.image)
    if problem is not None:
        log.info("frame %s not read: %s", frame.name, problem.message)
        return problem
    return recogniser.read(frame.image, deck, melds=melds)


def _finish(
    frames: tuple[Frame, ...],
    outcomes: Sequence[Reading | QualityProblem],
    settings: ScanSettings,
    started: float,
    capture_ms: float,
) -> Scan:
    readings = tuple(o if isinstance(o, Reading) else None for o in outcomes)
    problems = [o for o in outcomes if isinstance(o, QualityProblem)]
    good = [reading.cards for reading in readings if reading is not None]
    voted = vote(good, settings.check_below)
    quality = problems[-1] if not good and problems else None
    result = None
    if good and settings.rules is not None:
        result = interpret(
            settings.mode,
            voted.readings,
            settings.rules,
            deal=settings.deal,
            initial=settings.initial,
        )
    timing = {"capture": capture_ms}
    for stage in STAGE_NAMES:  # the recogniser's stages, over all frames
        timing[stage] = sum(r.timing_ms.get(stage, 0.0) for r in readings if r is not None)
    # what ``decode`` has long meant to readers of a scan's timings: from the checked indices
    # to the cards
    timing["decode"] = sum(timing[stage] for stage in DECODE_STAGES)
    timing["read"] = sum(r.timing_ms["total"] for r in readings if r is not None)
    timing["total"] = (time.perf_counter() - started) * 1000
    checks = [v.card.code for v in voted.cards if v.card.check]
    log.info(
        "scan of %d frames (%d read): %d cards, %d dropped, check %s, %.0f ms",
        len(frames),
        len(good),
        len(voted.cards),
        len(voted.dropped),
        checks or "none",
        timing["total"],
    )
    return Scan(frames, readings, voted, result, quality, timing)


def frame_from_image(image: np.ndarray, name: str, number: int = 0) -> Frame:
    """A frame for an image read from a file (``handfoot scan IMAGE``)."""
    return Frame(
        image=image, source=f"files:{name}", number=number, captured_at=time.time(), name=name
    )

"""Stage ``recheck``: the marks the classifier did not read surely, read again.

Each way of reading a mark again is one entry of :data:`RECHECKS`, run in order: a name (its
switch in :class:`ReadOptions`), when it applies, and what it does. A new idea is a new entry,
measured with its switch off and on (``handfoot eval DIR --without NAME``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from scanner.vision import closer
from scanner.vision.cards import IndexReading
from scanner.vision.decode import IndexCandidate, decode_heads
from scanner.vision.faint import counts
from scanner.vision.gaps import WALK_HEAT
from scanner.vision.preprocess import normalise
from scanner.vision.refine import refine_crops, refined_place
from scanner.vision.stages.classify import read_places
from scanner.vision.stages.records import FrameContext, Work
from scanner.vision.unread import agreed_unread

NAME = "recheck"
# turns a doubtful mark is read again at: the locator's angle is most often what it missed
# (model/experiments/turned.md)
RETRY_TURNS = (-90.0, -60.0, -30.0, -15.0, 15.0, 30.0, 60.0, 90.0)
UNSURE_BELOW = 0.7  # a card read less sure than this is doubtful too (experiments/turned.md)
RETRY_CONFIDENCE = 0.8  # a card read turned counts from this sure (experiments/turned.md)
REFINED_SURE = 0.7  # a card read where the refiner moved its mark counts from this (refiner.md)


@dataclass(frozen=True)
class Recheck:
    """One way of reading marks again: its ``name`` (a switch of ReadOptions), whether it
    ``applies`` to the work so far, and the ``run`` that reads them. ``doubtful``: it reads
    doubtful marks again, as a scale read without rechecks (``Scale.recheck``) does not."""

    name: str
    applies: Callable[[FrameContext, Work], bool]
    run: Callable[[FrameContext, Work], Work]
    doubtful: bool = True


def run(context: FrameContext, work: Work) -> Work:
    for entry in RECHECKS:
        if entry.doubtful and not context.scale.recheck:
            continue
        if getattr(context.options, entry.name) and entry.applies(context, work):
            work = entry.run(context, work)
    return work


def replaces(first: IndexReading, code: str, confidence: float, floor: float, none: str) -> bool:
    """Whether a second reading (``code``, ``confidence``) of a doubtful mark, turned or moved,
    replaces the ``first``: it reads a card at least ``floor`` sure, and surer than a card
    read the first time. "Not an index" (``none``) the first time counts as no card at all,
    however sure: the classifier learnt to call an index seen at a wrong angle or beside the
    crop "not an index", and the locator's misses are such marks."""
    before = 0.0 if first.code == none else first.confidence
    return code != none and confidence >= floor and confidence > before


def doubtful(readings: Sequence[IndexReading], none: str) -> list[int]:
    """Where ``readings`` are "not an index" or less than UNSURE_BELOW sure."""
    return [n for n, r in enumerate(readings) if r.code == none or r.confidence < UNSURE_BELOW]


def _has_doubtful(context: FrameContext, work: Work) -> bool:
    return bool(doubtful(work.readings, context.none))


def _turned(context: FrameContext, work: Work) -> Work:
    """A doubtful mark read again turned by 15–90°; a card read surely there counts."""
    none, readings = context.none, work.readings
    unsure = doubtful(readings, none)
    turned = [
        replace(readings[n].index, angle=(readings[n].index.angle + turn) % 360.0)
        for n in unsure
        for turn in RETRY_TURNS
    ]
    tried = read_places(context, work.image, turned, work.deck, "turned")
    kept = list(readings)
    for k, n in enumerate(unsure):
        tries = tried[k * len(RETRY_TURNS) : (k + 1) * len(RETRY_TURNS)]
        best = max(tries, key=lambda t: (t.code != none, t.confidence))
        if replaces(readings[n], best.code, best.confidence, RETRY_CONFIDENCE, none):
            kept[n] = best
    return replace(work, readings=tuple(kept))


def refined(
    context: FrameContext,
    image: np.ndarray,
    readings: Sequence[IndexReading],
    deck: str | None,
    read_by: str = "refine",
) -> list[IndexReading]:
    """A mark read "not an index" or unsurely, read again where the refiner says its index
    lies (``refine.py``, asked ``refine_rounds`` times, each from its last answer); a card
    read there at least REFINED_SURE sure, and surer than a card read where the mark was made,
    counts. As they are without a refiner."""
    none = context.none
    unsure = doubtful(readings, none)
    if not context.options.refine or context.nets.refiner is None or not unsure:
        return list(readings)
    moved = [readings[n].index for n in unsure]
    for _ in range(context.options.refine_rounds):
        moved = _refined_places(context, image, moved)
    again = read_places(context, image, moved, deck, read_by)
    kept = list(readings)
    for k, n in enumerate(unsure):
        if replaces(readings[n], again[k].code, again[k].confidence, REFINED_SURE, none):
            kept[n] = again[k]
    return kept


def _refined_places(
    context: FrameContext, image: np.ndarray, places: list[IndexCandidate]
) -> list[IndexCandidate]:
    """Each of ``places`` moved where the refiner says its index lies."""
    c, nets = context.contract, context.nets
    geometry = np.concatenate(
        [
            nets.refined(normalise(refine_crops(image, chunk, c), c))
            for start in range(0, len(places), nets.batch)
            for chunk in [places[start : start + nets.batch]]
        ]
    )
    return [refined_place(p, answer, c) for p, answer in zip(places, geometry, strict=True)]


def _refine(context: FrameContext, work: Work) -> Work:
    kept = refined(context, work.image, work.readings, work.deck)
    return replace(work, readings=tuple(kept))


def _has_small_unread(context: FrameContext, work: Work) -> bool:
    return bool(closer.worth_a_closer_look(work.readings, context.none))


def _closer(context: FrameContext, work: Work) -> Work:
    """Each small mark read "not an index" located again in a patch scaled up, and read where
    the locator marks the same index there; a card read so, sure enough to count without a
    check, replaces it (``closer.py``: less sure, a third were phantoms or a wrong code)."""
    c, none, readings = context.contract, context.none, work.readings
    small = closer.worth_a_closer_look(readings, none)
    places = [readings[n].index for n in small]
    mosaic = closer.build_mosaic(work.image, [(p.x, p.y) for p in places], c)
    height, width = mosaic.tensor.shape[2:]
    heads = context.nets.locate(mosaic.tensor)
    marks = decode_heads(heads, (width, height), c, limit=10 * len(small))
    found = closer.closer_marks(places, closer.marks_in_frame(mosaic, marks))
    if not found:
        return work
    order = sorted(found)
    read = read_places(context, work.image, [found[k] for k in order], work.deck, "closer")
    kept = list(readings)
    for k, reading in zip(order, read, strict=True):
        if reading.code != none and reading.confidence >= c.min_confidence:
            kept[small[k]] = reading
    return replace(work, readings=tuple(kept))


def _faint(context: FrameContext, work: Work) -> Work:
    """Faint marks (``faint.py``) kept only where a card is read surely: those read in full
    as they stand now, the others read once (turning every faint mark would cost more than it
    finds); the faint marks of at least WALK_HEAT that count as no card are set aside, as a
    fan's line may hold them (``gaps.fan_strays``)."""
    threshold, none = context.contract.peak_threshold, context.none
    large = context.options.faint_large
    readings = [
        reading
        for mark, reading in zip(work.full, work.readings, strict=True)
        if mark.score > threshold or counts(mark, reading.code, reading.confidence, none, large)
    ]
    passed_over = []
    if work.faint:
        read = read_places(context, work.image, work.faint, work.deck, "faint")
        for mark, reading in zip(work.faint, read, strict=True):
            if counts(mark, reading.code, reading.confidence, none, large):
                readings.append(reading)
            elif mark.score >= WALK_HEAT:
                passed_over.append(mark)
    return replace(work, readings=tuple(readings), passed_over=tuple(passed_over))


def _corners_agree(context: FrameContext, work: Work) -> Work:
    """Two marks read "not an index", unsurely, lying as one card's two corners and naming
    the same card next, read as that card, asking for a check (``unread.py``)."""
    c = context.contract
    agreed = agreed_unread(work.readings, c.classes, work.deck, c.not_an_index)
    kept = tuple(
        after if after is before else replace(after, read_by="corners_agree")
        for before, after in zip(work.readings, agreed, strict=True)
    )
    return replace(work, readings=kept)


def _always(context: FrameContext, work: Work) -> bool:
    return True


RECHECKS = (
    Recheck("turned", _has_doubtful, _turned),
    Recheck("refine", lambda context, work: context.nets.refiner is not None, _refine),
    Recheck("closer", _has_small_unread, _closer),
    Recheck("faint", _always, _faint, doubtful=False),
    Recheck("corners_agree", _always, _corners_agree),
)

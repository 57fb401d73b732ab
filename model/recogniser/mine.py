"""Classifier samples cut where the trained locator actually marks (hard examples).

The first classifier learns from crops placed around the labelled indices with made-up
jitter, and from "none" crops placed at random. At inference it sees something else: crops
placed by the locator, with the locator's own errors of angle and size, and the locator's
false marks, which sit on pips, court art and card edges rather than on bare table. Running
the trained locator over the training scenes and labelling each of its marks against the
truth gives the classifier exactly those crops to learn from.

A mark is a reading of an index when it lies within ``NEAR`` index heights of a labelled index
at least 70 % visible and reads within ``SAME_WAY`` degrees of it; it is "none" when it lies
``FAR`` or more index heights from every index at least ``SEEN`` visible, or on such an index
but turned a quarter or a half (a wrong reading); anything between is left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
from tqdm import tqdm

from model.recogniser.dataset import _load, scene_files
from model.recogniser.targets import CLASS_INDEX, index_truths
from scanner.vision import contract as spec

NEAR = 0.35
FAR = 0.9
SEEN = 0.3
SAME_WAY = 25.0
WRONG_WAY = 60.0
# Every second scene, from the second: the first classifier crops come from the others. Mining
# every scene, down to weaker marks (heat 0.15), read rendered scenes a little better but real
# photographs worse (rank right 83.7 % against 88.0 %): not shipped.
MINE_EVERY, MINE_OFFSET, MINE_PEAK = 2, 1, spec.PEAK_THRESHOLD


def _gap(first: float, second: float) -> float:
    return abs((first - second + 180.0) % 360.0 - 180.0)


def label_mark(mark, truths) -> int | None:
    """The class index a locator mark should read as, or None when it is ambiguous."""
    best, best_distance = None, np.inf
    for truth in truths:
        if truth.visible < SEEN:
            continue
        distance = np.hypot(mark.x - truth.centre[0], mark.y - truth.centre[1]) / truth.height
        if distance < best_distance:
            best, best_distance = truth, distance
    if best is None or best_distance >= FAR:
        return CLASS_INDEX[spec.NOT_AN_INDEX]
    if best_distance > NEAR:
        return None
    gap = _gap(mark.angle, best.angle)
    if gap > WRONG_WAY:
        return CLASS_INDEX[spec.NOT_AN_INDEX]
    if gap <= SAME_WAY and best.visible >= 0.7:
        return CLASS_INDEX[best.code]
    return None


def locator_marks(
    paths: list[Path], locator: Path, peak: float, turns: tuple[int, ...], desc: str
) -> Iterator[tuple[np.ndarray, dict, tuple]]:
    """Each scene's frame, labels and the ``locator`` ONNX file's marks in it (heat above
    ``peak``), read as the recogniser reads: the mean of the locator's heads over the frame's
    quarter ``turns`` (``scanner/vision/turns.py``), decoded, near-duplicates suppressed."""
    from scanner.vision.cards import suppress_duplicates
    from scanner.vision.contract import Contract
    from scanner.vision.decode import decode_heads
    from scanner.vision.networks import open_session
    from scanner.vision.preprocess import locator_input
    from scanner.vision.turns import mean_heads

    session = open_session(locator, threads=2)
    contract = replace(Contract.from_spec(), peak_threshold=peak)
    for path in tqdm(paths, desc=desc, unit="scene"):
        frame, labels = _load(path)
        height, width = frame.shape[:2]
        heads = mean_heads(
            locator_input(frame, contract),
            lambda tensor: session.run(None, {"image": tensor})[0],
            contract,
            turns,
        )
        yield frame, labels, suppress_duplicates(decode_heads(heads, (width, height), contract))


def mine_classifier_samples(
    scenes: Path,
    locator: Path,
    out: Path,
    *,
    every: int = MINE_EVERY,
    offset: int = MINE_OFFSET,
    peak: float = MINE_PEAK,
    turns: tuple[int, ...] = (0, 1, 2, 3),
    wider: bool = False,
) -> Path:
    """Run the ``locator`` ONNX file over every ``every``-th scene (from ``offset``, so the
    scenes differ from those the first classifier's crops came from) and save the crops of
    its marks with their classes, as ``cut_classifier_samples`` does, cut exactly as the
    recogniser cuts them (its crop map, the runtime's contract, and the mean of the
    locator's heads over the frame's quarter ``turns``, as ``scanner/vision/turns.py``), as
    the classifier's crops or, ``wider``, the wider classifier's."""
    from scanner.vision.contract import Contract
    from scanner.vision.preprocess import upright_crops, wider_crops

    cut = wider_crops if wider else upright_crops
    contract = Contract.from_spec()
    crops, classes = [], []
    paths = scene_files(scenes)[offset::every]
    for frame, labels, marks in locator_marks(paths, locator, peak, turns, "locator marks"):
        truths = index_truths(labels)
        labelled = [(mark, label_mark(mark, truths)) for mark in marks]
        labelled = [(mark, label) for mark, label in labelled if label is not None]
        crops.append(cut(frame, [mark for mark, _ in labelled], contract))
        classes += [label for _, label in labelled]
    shape = (0, contract.crop_h, contract.crop_w, 3)
    stacked = np.concatenate(crops) if crops else np.zeros(shape, np.uint8)
    np.savez(out, crops=stacked, classes=np.array(classes, np.int16))
    none = sum(c == CLASS_INDEX[spec.NOT_AN_INDEX] for c in classes)
    print(f"mined {len(classes)} crops ({none} none) from the locator's marks")
    return out

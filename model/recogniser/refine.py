"""The refiner: where the index a mark was made for truly lies (see ``scanner/vision/refine.py``).

It learns from two kinds of marks on the training scenes: each labelled index marked as the
locator marks small indices (moved off its centre, measured too small or too large, turned a
little: ``missed_mark``), and the trained locator's own marks (``mine_refiner_samples``). Its
target is the way back to the index (``spec.REFINED``), which
``scanner.vision.refine.refined_place`` takes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from model.recogniser.dataset import _load, scene_files
from model.recogniser.targets import IndexTruth, index_truths
from scanner.vision import contract as spec
from scanner.vision.decode import angle_gap

REFINER_RATE = 2e-3
MIN_VISIBLE = 0.7  # indices less visible than this are not learnt from, as for the classifier
# How the locator misses a small index (busy validation scenes, marks of missed cards): its
# centre off by 0.08–0.10 of the index at the median, 0.2 at p10/p90; its size 0.5–1.7 times
# (p10–p90); its angle off by 6° at the median, 15–19° at p10/p90.
NEAR_SHIFT, FAR_SHIFT, FAR_SHARE = 0.06, 0.18, 0.4
SIZE_SPREAD, SHAPE_SPREAD = 0.3, 0.12
TURN_SPREAD, WIDE_TURN_SPREAD, WIDE_TURN_SHARE = 8.0, 20.0, 0.25
TURN_LIMIT = 40.0  # degrees: no mark is drawn, or mined, further off its index's angle
# A mined mark within this many of an index's heights of its centre was made for it; marks down
# to the recogniser's faint ones are mined (they are read too).
MINE_REACH, MINE_PEAK = 0.6, 0.1


@dataclass(frozen=True)
class Mark:
    """A mark as the locator might make it: what the refiner is shown."""

    x: float
    y: float
    angle: float
    index_h: float
    index_w: float


def _wrapped(degrees: float) -> float:
    return (degrees + 180.0) % 360.0 - 180.0


def geometry_target(truth: IndexTruth, mark: Mark) -> np.ndarray:
    """Where ``truth`` lies against ``mark``, as the refiner answers (``spec.REFINED``)."""
    extent = spec.crop_extent(mark.index_h, mark.index_w)
    angle = math.radians(mark.angle)
    offset = (truth.centre - np.array([mark.x, mark.y])) / extent
    along = offset @ np.array([math.cos(angle), math.sin(angle)])
    down = offset @ np.array([-math.sin(angle), math.cos(angle)])
    return np.array(
        [
            along,
            down,
            math.log(truth.height / mark.index_h),
            math.log(truth.width / mark.index_w),
            math.radians(_wrapped(truth.angle - mark.angle)),
        ],
        np.float32,
    )


def missed_mark(truth: IndexTruth, rng: np.random.Generator) -> Mark:
    """``truth`` marked as the locator marks small indices (the spreads above)."""
    spread = FAR_SHIFT if rng.random() < FAR_SHARE else NEAR_SHIFT
    centre = truth.centre + rng.normal(0.0, spread, 2) * truth.height
    size = rng.normal(0.0, SIZE_SPREAD)
    turn_spread = WIDE_TURN_SPREAD if rng.random() < WIDE_TURN_SHARE else TURN_SPREAD
    turn = float(np.clip(rng.normal(0.0, turn_spread), -TURN_LIMIT, TURN_LIMIT))
    return Mark(
        x=float(centre[0]),
        y=float(centre[1]),
        angle=(truth.angle + turn) % 360.0,
        index_h=truth.height * math.exp(size + rng.normal(0.0, SHAPE_SPREAD)),
        index_w=truth.width * math.exp(size + rng.normal(0.0, SHAPE_SPREAD)),
    )


def _write_samples(out: Path, scenes: Iterator[tuple[np.ndarray, list]]) -> int:
    """Save the refiner's crop of each mark and the way back to its index, for each scene's
    frame and (mark, index) pairs; how many were saved (none: nothing is written)."""
    from scanner.vision.contract import Contract
    from scanner.vision.refine import refine_crops

    contract = Contract.from_spec()
    crops, targets = [], []
    for frame, pairs in scenes:
        if pairs:
            crops.append(refine_crops(frame, [mark for mark, _ in pairs], contract))
            targets += [geometry_target(truth, mark) for mark, truth in pairs]
    if targets:
        temporary = out.with_suffix(".tmp.npz")
        np.savez(temporary, crops=np.concatenate(crops), targets=np.stack(targets))
        temporary.replace(out)
    return len(targets)


def _seen(labels: dict) -> list[IndexTruth]:
    return [truth for truth in index_truths(labels) if truth.visible >= MIN_VISIBLE]


def cut_refiner_samples(folders: list[Path], out: Path, *, seed: int = 0, every: int = 1) -> Path:
    """One missed mark (``missed_mark``) of every index at least MIN_VISIBLE seen in every
    ``every``-th scene of ``folders``: its crop and the way back to the index."""
    rng = np.random.default_rng(seed)
    paths = [path for folder in folders for path in scene_files(folder)[::every]]

    def scenes():
        for path in tqdm(paths, desc="refiner crops", unit="scene"):
            frame, labels = _load(path)
            yield frame, [(missed_mark(truth, rng), truth) for truth in _seen(labels)]

    count = _write_samples(out, scenes())
    if not count:
        raise ValueError(f"no labelled index in {', '.join(map(str, folders))}")
    print(f"cut {count} refiner crops from {len(paths)} scenes")
    return out


def _nearest_truth(mark, truths: list[IndexTruth]) -> IndexTruth | None:
    """The index ``mark`` was made for: the nearest well-seen index within MINE_REACH of its
    height, read within TURN_LIMIT of its angle; None when there is none."""
    best, best_distance = None, MINE_REACH
    for truth in truths:
        distance = math.hypot(mark.x - truth.centre[0], mark.y - truth.centre[1]) / truth.height
        if distance < best_distance and angle_gap(mark.angle, truth.angle) <= TURN_LIMIT:
            best, best_distance = truth, distance
    return best


def mine_refiner_samples(scenes: Path, locator: Path, out: Path, *, every: int = 1) -> Path:
    """The ``locator`` ONNX file's own marks on every ``every``-th scene of ``scenes``, read
    as the recogniser reads (``mine.locator_marks``), each made for a labelled index: its crop
    and the way back to that index. What the locator really misses, beside the drawn misses of
    ``cut_refiner_samples``."""
    from model.recogniser.mine import locator_marks

    paths = scene_files(scenes)[::every]

    def marked():
        for frame, labels, marks in locator_marks(
            paths, locator, MINE_PEAK, (0, 1, 2, 3), "refiner marks"
        ):
            truths = _seen(labels)
            pairs = [(mark, _nearest_truth(mark, truths)) for mark in marks]
            yield frame, [(mark, truth) for mark, truth in pairs if truth is not None]

    count = _write_samples(out, marked())
    if not count:
        raise ValueError(f"{locator} marks no labelled index in {scenes}: is the locator trained?")
    print(f"mined {count} refiner crops from {len(paths)} scenes")
    return out


def train_refiner(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    mined: Path | None = None,
    device: str = "cpu",
    workers: int = 0,
) -> nn.Module:
    """An L1 loss on every part of the answer; the crops' light and colour jittered. With
    ``mined`` (``mine_refiner_samples``), half of every batch is the locator's own marks.
    ``device``, ``workers``: see ``loop.run_steps``."""
    from model.recogniser.loop import Batches, normalise, run_steps
    from model.recogniser.nets import Refiner
    from model.recogniser.verify import colour_jitter

    torch.manual_seed(seed)
    sets = [np.load(path) for path in (samples, mined) if path is not None]
    sets = [(data["crops"], data["targets"].astype(np.float32)) for data in sets]
    shares = [batch // len(sets)] * len(sets)
    shares[0] += batch - sum(shares)
    model = Refiner()

    def draw(step: int, generator: torch.Generator) -> tuple[torch.Tensor, ...]:
        picked = [
            (crops[picks], targets[picks])
            for (crops, targets), share in zip(sets, shares, strict=True)
            for picks in [torch.randint(len(crops), (share,), generator=generator).numpy()]
        ]
        x = colour_jitter(normalise(np.concatenate([crops for crops, _ in picked])), generator)
        return x, torch.from_numpy(np.concatenate([targets for _, targets in picked]))

    def loss_of(drawn: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict]:
        x, y = drawn
        errors = (model(x) - y).abs()
        means = errors.detach().mean(dim=0)
        parts = {name: float(means[k]) for k, name in enumerate(spec.REFINED)}
        return errors.mean(), parts

    rounds = [(steps, REFINER_RATE)]
    batches = Batches(draw, loss_of)
    run_steps("refiner", model, rounds, work, batches, seed, None, device, workers)
    return model

"""Training the locator: its batches and loss, the first round and its warm restarts, and the
stages that go on from an ONNX locator (grown, tuned, folded)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from model.recogniser.dataset import cut_locator_samples, joined, save_whole, truths_from_rows
from model.recogniser.loop import Batches, jitter, normalise, recolour, run_steps
from model.recogniser.nets import Locator
from model.recogniser.targets import locator_targets
from scanner.vision import contract as spec

# The crop the classifier reads depends on the angle and the index height: learn those first.
REGRESSION_WEIGHTS = torch.tensor([3.0, 3.0, 2.0, 1.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0]).view(
    1, -1, 1, 1
)


def focal_loss(logits: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per positive peak."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = target.eq(1.0).float() + (target > 0.97).float() * (1 - target.eq(1.0).float())
    pos_loss = -torch.log(p) * (1 - p) ** 2 * positive
    neg_loss = -torch.log(1 - p) * p**2 * (1 - target) ** 4 * (1 - positive)
    count = positive.sum().clamp(min=1.0)
    return ((pos_loss + neg_loss) * weight).sum() / count


LOCATOR_RATE = 2e-3


WIDE_INDEX = 1.3  # an index this many times wider than tall: the special deck's words
WIDE_FOCUS = 3.0  # how much more often a crop holding a readable wide index is drawn
SMALL_INDEX = 6.0  # px on an index's short side below which the locator finds the fewest


def crop_weights(truths: np.ndarray, counts: np.ndarray, small_focus: float = 1.0) -> np.ndarray:
    """Sampling weights of the locator's crops, summing to 1. Words printed across a corner
    (LORD, JESTER, JOKER) are a few in a hundred indices, and a wide word looks like a tall
    index turned a quarter: the locator read them turned and too small. Crops that hold one
    readable are drawn WIDE_FOCUS times as often; crops that hold a readable index smaller
    than SMALL_INDEX on its short side (the fifth of the indices the locator finds least of),
    ``small_focus`` times as often (on top of WIDE_FOCUS where a crop holds both)."""
    if small_focus <= 0:
        raise ValueError(f"small_focus is a positive factor, not {small_focus}")
    owner = np.repeat(np.arange(len(counts)), counts)
    readable = truths[:, 10] >= 0.9
    wide = (truths[:, 4] >= WIDE_INDEX * truths[:, 3]) & readable
    small = (np.minimum(truths[:, 3], truths[:, 4]) < SMALL_INDEX) & readable
    weights = np.ones(len(counts))
    weights[np.unique(owner[wide])] = WIDE_FOCUS
    weights[np.unique(owner[small])] *= small_focus
    return weights / weights.sum()


def with_real_share(weights: np.ndarray, real: np.ndarray, share: float) -> np.ndarray:
    """Crop ``weights`` (summing to 1) redrawn so the crops flagged ``real`` (cut from real
    photos, ``real_marks.py``) are drawn ``share`` of the time, each part as weighted before."""
    if not 0 <= share <= 1:
        raise ValueError(f"the real photos' share is between 0 and 1, not {share}")
    real = real.astype(bool)
    if not real.any() or real.all():
        return weights
    mixed = np.where(
        real, weights / weights[real].sum() * share, weights / weights[~real].sum() * (1 - share)
    )
    return mixed / mixed.sum()


def merge_samples(parts: list[Path], out: Path) -> Path:
    """Locator samples of several files in one, each crop flagged ``real`` as its file flags
    it (``real_marks.py`` flags its crops; rendered scenes' crops are not)."""
    loaded = [np.load(part) for part in parts]
    arrays = joined(loaded, ("images", "truths", "counts"))
    arrays["real"] = np.concatenate(
        [d["real"] if "real" in d else np.zeros(len(d["counts"]), bool) for d in loaded]
    )
    return save_whole(out, arrays)


def turns_divergence(logits: torch.Tensor, taught: torch.Tensor) -> torch.Tensor:
    """How far the heat ``logits`` [N, 1, h, w] of one pass lie from ``taught`` [N, 1, h, w],
    the heat the locator gave the same cells as the mean of its four turns: the divergence of
    the two cells' Bernoulli distributions, summed (zero where they agree)."""
    taught = taught.clamp(1e-4, 1 - 1e-4)
    entropy = -(taught * torch.log(taught) + (1 - taught) * torch.log(1 - taught))
    crossed = nn.functional.binary_cross_entropy_with_logits(logits, taught, reduction="none")
    return (crossed - entropy).sum()


def locator_batches(
    samples: Path,
    model: Locator,
    batch: int,
    small_focus: float = 1.0,
    fold: float = 0.0,
    peaks: str = "round",
    real_share: float = 0.0,
    window: int = 0,
    recoloured: float = 0.0,
) -> Batches:
    """The locator's batches and loss (see ``run_steps``), its crops drawn by
    ``crop_weights``, its heat taught with ``peaks`` (``targets.locator_targets``). With
    ``fold``, the samples' "teacher" heads (``fold_locator``) weigh in: the divergence of the
    heat from theirs, per peak, times ``fold``."""
    data = np.load(samples)
    images, truths, counts = data["images"], data["truths"], data["counts"]
    if fold > 0 and "teacher" not in data:
        raise ValueError(f"{samples} holds no teacher heads: cut them with a teacher")
    teacher = data["teacher"] if fold > 0 else None
    starts = np.concatenate([[0], np.cumsum(counts)])
    size = images.shape[1]
    if window and (window > size or window % spec.STRIDE):
        raise ValueError(f"a window of {window} px is no part of {size} px crops on the grid")
    cut = window or size
    weights = crop_weights(truths, counts, small_focus)
    if "real" in data:
        weights = with_real_share(weights, data["real"], real_share)
    weights = torch.from_numpy(weights)

    def draw(step: int, generator: torch.Generator) -> tuple[torch.Tensor, ...]:
        pick = torch.multinomial(weights, batch, replacement=True, generator=generator).numpy()
        # each crop's window, on the heads' grid: a smaller window trains as much for less work
        if cut == size:
            at = np.zeros((batch, 2), int)
        else:
            cells = (size - cut) // spec.STRIDE + 1
            at = torch.randint(0, cells, (batch, 2), generator=generator).numpy() * spec.STRIDE
        heads, heat_w, reg_w, windows = [], [], [], []
        for i, (x0, y0) in zip(pick, at, strict=True):
            rows = truths[starts[i] : starts[i + 1]].astype(np.float64)
            rows[:, [0, 5]] -= x0
            rows[:, [1, 6]] -= y0
            h, hw, rw = locator_targets(truths_from_rows(rows), cut, cut, peaks)
            heads.append(h)
            heat_w.append(hw)
            reg_w.append(rw)
            windows.append(images[i, y0 : y0 + cut, x0 : x0 + cut])
        seen = jitter(normalise(np.stack(windows)), generator)
        drawn = (
            recolour(seen, generator, recoloured) if recoloured > 0 else seen,
            torch.from_numpy(np.stack(heads)),
            torch.from_numpy(np.stack(heat_w))[:, None],
            torch.from_numpy(np.stack(reg_w))[:, None],
        )
        if teacher is None:
            return drawn
        cells = cut // spec.STRIDE
        taught = [
            teacher[i, :1, y0 // spec.STRIDE :][:, :cells, x0 // spec.STRIDE :][:, :, :cells]
            for i, (x0, y0) in zip(pick, at, strict=True)
        ]
        return (*drawn, torch.from_numpy(np.stack(taught).astype(np.float32)))

    def loss(drawn: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict]:
        x, target, heat_weight, reg_weight = drawn[:4]
        out = model.raw(x)
        heat = focal_loss(out[:, :1], target[:, :1], heat_weight)
        regression_weights = REGRESSION_WEIGHTS.to(out.device)
        # a real photo's index comes without its card: those heads are NaN there, not taught
        known = torch.isfinite(target[:, 1:])
        aimed = torch.where(known, target[:, 1:], out[:, 1:].detach())
        error = torch.abs(out[:, 1:] - aimed) * regression_weights
        reg = (
            (error * reg_weight).sum() / reg_weight.sum().clamp(min=1.0) / regression_weights.sum()
        )
        parts = {"heat": heat.item(), "regression": reg.item()}
        if teacher is None:
            return heat + reg, parts
        positives = target[:, :1].eq(1.0).sum().clamp(min=1.0)
        folded = turns_divergence(out[:, :1], drawn[4]) / positives
        parts["turns"] = folded.item()
        return heat + reg + fold * folded, parts

    return Batches(draw, loss)


@dataclass(frozen=True)
class Teaching:
    """How every stage that trains the locator teaches it: the heat peak round each index
    centre (``targets.PEAKS``), the device it trains on, the processes that draw its batches
    ahead (``run_steps``), and the window of each crop it reads."""

    peaks: str = "round"
    device: str = "cpu"
    workers: int = 0
    window: int = 0  # px of each sample crop trained on, drawn at random in it (0: all of it)
    recolour: float = 0.0  # share of the crops seen dull, grey or cast (``loop.recolour``)


def train_locator(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    more: tuple[int, ...] = (),
    teaching: Teaching = Teaching(),
    real_share: float = 0.0,
) -> Locator:
    """``steps`` from scratch, then one warm restart per entry of ``more``, each at half the
    previous peak rate, taught as ``teaching`` says (crops of real photos, where the samples
    flag them, ``real_share`` of the time)."""
    torch.manual_seed(seed)
    model = Locator()
    rounds = [(steps, LOCATOR_RATE)]
    for length in more:
        rounds.append((length, rounds[-1][1] / 2))
    batch_loss = locator_batches(
        samples,
        model,
        batch,
        peaks=teaching.peaks,
        real_share=real_share,
        window=teaching.window,
        recoloured=teaching.recolour,
    )
    run_steps(
        "locator",
        model,
        rounds,
        work,
        batch_loss,
        seed,
        device=teaching.device,
        workers=teaching.workers,
    )
    return model


GROW_RATE = LOCATOR_RATE / 4  # growing and tuning go on from a trained locator


def grow_locator(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    start: Path,
    teaching: Teaching = Teaching(),
    real_share: float = 0.0,
) -> Locator:
    """The locator in the ONNX file ``start`` grown into the fine one (``grow.py``), then
    trained ``steps`` more with its batch norms fixed, taught as ``teaching`` says (real
    crops ``real_share`` of the time, as ``train_locator``)."""
    from model.recogniser.grow import grown, locator_from_onnx

    grown_locator = grown(locator_from_onnx(start))
    data = (samples, work, steps, batch, seed)
    return _train_on(
        grown_locator, "locator-grown", *data, teaching=teaching, real_share=real_share
    )


def tune_locator(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    start: Path,
    small_focus: float = 1.0,
    teaching: Teaching = Teaching(),
    real_share: float = 0.0,
) -> Locator:
    """The locator in the ONNX file ``start`` trained ``steps`` more, its batch norms fixed:
    how a shipped locator learns from newly rendered scenes without starting again (crops
    holding small indices drawn ``small_focus`` times as often, see ``crop_weights``; crops of
    real photos, where the samples flag them, ``real_share`` of the time), taught as
    ``teaching`` says."""
    from model.recogniser.grow import locator_from_onnx

    data = (samples, work, steps, batch, seed)
    return _train_on(
        locator_from_onnx(start),
        "locator-tuned",
        *data,
        small_focus,
        teaching=teaching,
        real_share=real_share,
    )


def fold_locator(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    start: Path,
    fold: float,
    teaching: Teaching = Teaching(),
) -> Locator:
    """The locator in the ONNX file ``start`` taught to give in one pass the heat it gives as
    the mean of its four turns (``scanner/vision/turns.py``): trained ``steps`` more, its batch
    norms fixed, on samples holding those heads ("teacher", see ``cut_folded_samples``), the
    divergence from them weighing ``fold`` beside the truth's loss, taught as ``teaching``
    says."""
    from model.recogniser.grow import locator_from_onnx

    data = (samples, work, steps, batch, seed)
    return _train_on(
        locator_from_onnx(start), "locator-folded", *data, fold=fold, teaching=teaching
    )


def cut_folded_samples(scenes: Path, out: Path, teacher: Path, per_scene: int, seed: int) -> Path:
    """``cut_locator_samples`` with the heads of the ONNX locator ``teacher`` over each crop,
    read on the whole frame as the recogniser reads it, the mean of its four turns (``teacher``
    is a locator.onnx beside the classifier and contract it is read with)."""
    from scanner.vision.networks import LOCATOR_FILE
    from scanner.vision.recogniser import Recogniser

    if teacher.name != LOCATOR_FILE:
        raise ValueError(f"the teacher is a {LOCATOR_FILE} with its recogniser, not {teacher}")
    reader = Recogniser.load(
        teacher.parent, threads=torch.get_num_threads(), refine=False, wider=False
    )
    stride = reader.contract.stride
    return cut_locator_samples(
        scenes, out, per_scene=per_scene, seed=seed, teacher=reader.heads, stride=stride
    )


def _train_on(
    model: Locator,
    name: str,
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    small_focus: float = 1.0,
    fold: float = 0.0,
    teaching: Teaching = Teaching(),
    real_share: float = 0.0,
) -> Locator:
    from model.recogniser.onnx_weights import freeze_norms

    torch.manual_seed(seed)
    batch_loss = locator_batches(
        samples,
        model,
        batch,
        small_focus,
        fold,
        teaching.peaks,
        real_share,
        teaching.window,
        teaching.recolour,
    )
    run_steps(
        name,
        model,
        [(steps, GROW_RATE)],
        work,
        batch_loss,
        seed,
        prepare=freeze_norms,
        device=teaching.device,
        workers=teaching.workers,
    )
    return model

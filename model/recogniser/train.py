"""Training the models on the CPU, reproducibly, in steps that survive being cut off.

Every ``CHECKPOINT_EVERY`` steps the model, optimiser, step, losses and random state go to
``<work>/<name>.ckpt`` (written to a temporary file, then renamed); starting again resumes
from there. ``python -m model.recogniser.train --help`` lists the stages; ``make model`` runs
them all: cut, the locator's first round, mining, the classifier, the locator's warm restarts,
(given ``--grow-steps``) the grown locator, export, then the verifier (``verify.py``), the
refiner (``refine.py``) and the wider classifier (``train_and_export_wider``), mined with the
exported locator, and the face reader (``faces.py``), from the labels alone.
``--classifier-from`` and ``--grow-from`` start from a shipped ONNX model instead
(``onnx_weights.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from model.recogniser.dataset import (
    cut_classifier_samples,
    cut_locator_parts,
    cut_locator_samples,
    truths_from_rows,
)
from model.recogniser.nets import Classifier, Locator
from model.recogniser.targets import CLASS_INDEX, PEAKS, locator_targets
from scanner.vision import contract as spec

CHECKPOINT_EVERY = 50
# The crop the classifier reads depends on the angle and the index height: learn those first.
REGRESSION_WEIGHTS = torch.tensor([3.0, 3.0, 2.0, 1.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0]).view(
    1, -1, 1, 1
)


def normalise(images: np.ndarray) -> torch.Tensor:
    """uint8 (N, H, W, 3) RGB → the models' input (N, 3, H, W)."""
    x = torch.from_numpy(images).permute(0, 3, 1, 2).float()
    return (x / 255.0 - spec.MEAN) / spec.STD


def jitter(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Small brightness and contrast changes per sample, on top of the renderer's."""
    n = x.shape[0]
    gain = 1 + 0.15 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5) * 2
    bias = 0.15 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5) * 2
    return x * gain + bias


class Checkpoint:
    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self, model: nn.Module, optimiser: torch.optim.Optimizer) -> tuple[int, list, dict]:
        if not self.path.exists():
            return 0, [], {}
        state = torch.load(self.path, weights_only=False, map_location="cpu")
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        return state["step"], state["history"], state["extra"]

    def save(self, model, optimiser, step: int, history: list, extra: dict) -> None:
        temporary = self.path.with_suffix(".tmp")
        torch.save(
            {
                "model": model.state_dict(),
                "optimiser": optimiser.state_dict(),
                "step": step,
                "history": history,
                "extra": extra,
            },
            temporary,
        )
        os.replace(temporary, self.path)  # a cut-off never leaves half a checkpoint


def cosine_rounds(rounds: list[tuple[int, float]]) -> Callable[[int], float]:
    """The learning rate at each step: one cosine from its peak to zero per round of
    (steps, peak); a round after the first is a warm restart that lets a trained model go on
    learning instead of starting again."""
    starts = np.cumsum([0] + [length for length, _ in rounds])

    def rate(step: int) -> float:
        i = min(int(np.searchsorted(starts, step, side="right")) - 1, len(rounds) - 1)
        length, peak = rounds[i]
        return peak * 0.5 * (1 + math.cos(math.pi * (step - starts[i]) / length))

    return rate


def step_generator(seed: int, step: int) -> torch.Generator:
    """The random source of one step's batch: a function of (seed, step) alone."""
    return torch.Generator().manual_seed(seed * 1_000_003 + step)


@dataclass(frozen=True)
class Batches:
    """A training stage's batches in two halves: ``draw`` (step, generator) → CPU tensors,
    which worker processes can run ahead of the model, and ``loss`` (those tensors on the
    model's device) → (loss, parts)."""

    draw: Callable[[int, torch.Generator], tuple[torch.Tensor, ...]]
    loss: Callable[[tuple[torch.Tensor, ...]], tuple[torch.Tensor, dict]]


class _Drawn(torch.utils.data.Dataset):
    def __init__(self, draw, seed: int, start: int, steps: int) -> None:
        self.draw, self.seed, self.start, self.steps = draw, seed, start, steps

    def __len__(self) -> int:
        return self.steps - self.start

    def __getitem__(self, i: int) -> tuple[torch.Tensor, ...]:
        step = self.start + i
        return self.draw(step, step_generator(self.seed, step))


def drawn_batches(
    batches: Batches, seed: int, start: int, steps: int, workers: int, device: torch.device
) -> Iterator[tuple[torch.Tensor, ...]]:
    """The batches of steps start…steps-1 in order, on ``device``, drawn ahead by ``workers``
    processes (0: drawn here, one at a time). The same (seed, step) gives the same batch
    either way, so a resumed or a parallel run sees what a plain one sees."""
    if workers == 0:
        for step in range(start, steps):
            yield tuple(t.to(device) for t in batches.draw(step, step_generator(seed, step)))
        return
    loader = torch.utils.data.DataLoader(
        _Drawn(batches.draw, seed, start, steps),
        batch_size=None,
        num_workers=workers,
        prefetch_factor=8,
        pin_memory=device.type == "cuda",
        # The draws are closures over the samples in memory: forked workers share them.
        multiprocessing_context="fork",
        # The workers' seeds from a generator of their own: drawn from the global one, they
        # would change the model's dropout masks.
        generator=torch.Generator().manual_seed(seed),
    )
    for drawn in loader:
        yield tuple(t.to(device, non_blocking=True) for t in drawn)


def run_steps(
    name: str,
    model: nn.Module,
    rounds: list[tuple[int, float]],
    work: Path,
    batches: Batches,
    seed: int,
    prepare: Callable[[nn.Module], None] | None = None,
    device: str = "cpu",
    workers: int = 0,
) -> list[dict]:
    """The shared loop: AdamW with cosine rounds (``cosine_rounds``), resumable at any
    checkpoint. The batch of step k depends only on (seed, k), so a resumed run sees the same
    batches, and so does a run on another ``device`` (an accelerator) with its batches drawn
    ahead by ``workers`` processes (``drawn_batches``). The model comes back on the CPU, and
    the losses of every step go to ``work/<name>-history.json`` (for the curves) as well as
    being returned."""
    target = torch.device(device)
    steps = sum(length for length, _ in rounds)
    rate = cosine_rounds(rounds)
    model.to(target)
    optimiser = torch.optim.AdamW(model.parameters(), lr=rounds[0][1], weight_decay=1e-4)
    checkpoint = Checkpoint(work / f"{name}.ckpt")
    start, history, _ = checkpoint.load(model, optimiser)
    model.train()
    if prepare is not None:
        prepare(model)
    stream = drawn_batches(batches, seed, start, steps, workers, target)
    bar = tqdm(range(start, steps), desc=name, unit="step", initial=start, total=steps)
    for step in bar:
        for group in optimiser.param_groups:
            group["lr"] = rate(step)
        loss, parts = batches.loss(next(stream))
        optimiser.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimiser.step()
        value = loss.item()
        history.append({"step": step, "loss": value, **parts})
        bar.set_postfix(loss=f"{value:.4f}")
        if (step + 1) % CHECKPOINT_EVERY == 0 or step + 1 == steps:
            checkpoint.save(model, optimiser, step + 1, history, {})
    model.to("cpu")
    model.eval()
    (work / f"{name}-history.json").write_text(json.dumps(history))
    return history


# -- the locator ---------------------------------------------------------------------------------


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
    weights = torch.from_numpy(crop_weights(truths, counts, small_focus))

    def draw(step: int, generator: torch.Generator) -> tuple[torch.Tensor, ...]:
        pick = torch.multinomial(weights, batch, replacement=True, generator=generator).numpy()
        heads, heat_w, reg_w = [], [], []
        for i in pick:
            rows = truths[starts[i] : starts[i + 1]].astype(np.float64)
            h, hw, rw = locator_targets(truths_from_rows(rows), size, size, peaks)
            heads.append(h)
            heat_w.append(hw)
            reg_w.append(rw)
        drawn = (
            jitter(normalise(images[pick]), generator),
            torch.from_numpy(np.stack(heads)),
            torch.from_numpy(np.stack(heat_w))[:, None],
            torch.from_numpy(np.stack(reg_w))[:, None],
        )
        if teacher is None:
            return drawn
        return (*drawn, torch.from_numpy(teacher[pick, :1].astype(np.float32)))

    def loss(drawn: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict]:
        x, target, heat_weight, reg_weight = drawn[:4]
        out = model.raw(x)
        heat = focal_loss(out[:, :1], target[:, :1], heat_weight)
        regression_weights = REGRESSION_WEIGHTS.to(out.device)
        error = torch.abs(out[:, 1:] - target[:, 1:]) * regression_weights
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
    centre (``targets.PEAKS``), the device it trains on, and the processes that draw its batches
    ahead (``run_steps``)."""

    peaks: str = "round"
    device: str = "cpu"
    workers: int = 0


def train_locator(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    more: tuple[int, ...] = (),
    teaching: Teaching = Teaching(),
) -> Locator:
    """``steps`` from scratch, then one warm restart per entry of ``more``, each at half the
    previous peak rate, taught as ``teaching`` says."""
    torch.manual_seed(seed)
    model = Locator()
    rounds = [(steps, LOCATOR_RATE)]
    for length in more:
        rounds.append((length, rounds[-1][1] / 2))
    batch_loss = locator_batches(samples, model, batch, peaks=teaching.peaks)
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
) -> Locator:
    """The locator in the ONNX file ``start`` grown into the fine one (``grow.py``), then
    trained ``steps`` more with its batch norms fixed, taught as ``teaching`` says."""
    from model.recogniser.grow import grown, locator_from_onnx

    grown_locator = grown(locator_from_onnx(start))
    data = (samples, work, steps, batch, seed)
    return _train_on(grown_locator, "locator-grown", *data, teaching=teaching)


def tune_locator(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    start: Path,
    small_focus: float = 1.0,
    teaching: Teaching = Teaching(),
) -> Locator:
    """The locator in the ONNX file ``start`` trained ``steps`` more, its batch norms fixed:
    how a shipped locator learns from newly rendered scenes without starting again (crops
    holding small indices drawn ``small_focus`` times as often, see ``crop_weights``), taught as
    ``teaching`` says."""
    from model.recogniser.grow import locator_from_onnx

    data = (samples, work, steps, batch, seed)
    return _train_on(
        locator_from_onnx(start), "locator-tuned", *data, small_focus, teaching=teaching
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
    from scanner.vision.recogniser import LOCATOR_FILE, Recogniser

    if teacher.name != LOCATOR_FILE:
        raise ValueError(f"the teacher is a {LOCATOR_FILE} with its recogniser, not {teacher}")
    reader = Recogniser.load(
        teacher.parent,
        threads=torch.get_num_threads(),
        look_closer=False,
        rescale=False,
        refine=False,
        wider=False,
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
) -> Locator:
    from model.recogniser.onnx_weights import freeze_norms

    torch.manual_seed(seed)
    batch_loss = locator_batches(samples, model, batch, small_focus, fold, teaching.peaks)
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


# -- the classifier ------------------------------------------------------------------------------


MINED_TRUE, MINED_FALSE = 0.35, 0.2  # shares of a classifier batch drawn from mined crops


def _balanced(classes: np.ndarray) -> np.ndarray:
    """Sampling weights: rare cards (black threes, Villains, Ladies) are drawn more often than
    they lie on tables (inverse square root of frequency), summing to 1."""
    frequency = np.bincount(classes, minlength=len(spec.CLASSES)).astype(np.float64)
    weights = 1.0 / np.sqrt(np.maximum(frequency, 1.0))[classes]
    return weights / weights.sum()


CLASSIFIER_RATE = 3e-3
TUNE_RATE = CLASSIFIER_RATE / 10


def train_classifier(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    mined: Path | None = None,
    start: Path | None = None,
    distil: float = 0.0,
    name: str = "classifier",
    device: str = "cpu",
    workers: int = 0,
) -> Classifier:
    """Train the classifier on ``samples``; with ``mined`` (crops where the trained locator
    marks, see ``mine.py``), half of every batch comes from those. With ``start`` (an ONNX
    classifier) it goes on from that model at a tenth of the rate, its batch norms fixed;
    with ``distil`` > 0 as well, the loss adds that weight times the divergence of its class
    probabilities from the start model's on the same crops (DISTIL_TEMPERATURE), so a round
    on new designs keeps what the start model reads elsewhere. ``name``: its checkpoint's and
    history's ("wider" for the wider classifier, trained the same way on its own crops).
    ``device``, ``workers``: see ``run_steps``."""
    torch.manual_seed(seed)
    data = np.load(samples)
    crops, classes = data["crops"], data["classes"].astype(np.int64)
    weights_np = _balanced(classes)
    extra = np.load(mined) if mined is not None else None
    if extra is not None and len(extra["classes"]):
        crops = np.concatenate([crops, extra["crops"]])
        extra_classes = extra["classes"].astype(np.int64)
        classes = np.concatenate([classes, extra_classes])
        # The locator's false marks are few but they are the phantoms: a fifth of every
        # batch; its true marks a third; the first samples the rest.
        false = extra_classes == CLASS_INDEX[spec.NOT_AN_INDEX]
        extra_weights = np.where(false, 0.0, _balanced(np.where(false, 0, extra_classes)))
        # a few small scenes may give the locator's marks on no index at all, or only there
        true_share = MINED_TRUE if extra_weights.sum() > 0 else 0.0
        false_share = MINED_FALSE if false.any() else 0.0
        if true_share:
            extra_weights = true_share * extra_weights / extra_weights.sum()
        extra_weights[false] = false_share / max(1, int(false.sum()))
        weights_np = np.concatenate([weights_np * (1 - true_share - false_share), extra_weights])
    model, rate, prepare, teacher = Classifier(), CLASSIFIER_RATE, None, None
    if start is not None:
        from model.recogniser.onnx_weights import freeze_norms, load_folded

        example = torch.zeros(1, 3, spec.CROP_H, spec.CROP_W)
        model, rate, prepare = load_folded(model, start, example), TUNE_RATE, freeze_norms
        if distil > 0:
            teacher = load_folded(Classifier(), start, example).eval().to(device)
            teacher.requires_grad_(False)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.05)
    weights = torch.from_numpy(weights_np)

    def draw(step: int, generator: torch.Generator) -> tuple[torch.Tensor, ...]:
        pick = torch.multinomial(weights, batch, replacement=True, generator=generator).numpy()
        return jitter(normalise(crops[pick]), generator), torch.from_numpy(classes[pick])

    def loss_of(drawn: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict]:
        x, y = drawn
        logits = model(x)
        loss = criterion(logits, y)
        accuracy = float((logits.argmax(1) == y).float().mean())
        if teacher is None:
            return loss, {"accuracy": accuracy}
        with torch.no_grad():
            kept = teacher(x)
        drift = _divergence(logits, kept)
        return loss + distil * drift, {"accuracy": accuracy, "drift": drift.item()}

    rounds = [(steps, rate)]
    batches = Batches(draw, loss_of)
    run_steps(name, model, rounds, work, batches, seed, prepare, device, workers)
    return model


DISTIL_TEMPERATURE = 2.0  # softens both models' probabilities, so near misses count too


def _divergence(logits: torch.Tensor, kept: torch.Tensor) -> torch.Tensor:
    """KL(start model ‖ model) of the tempered class probabilities, scaled by T² so its
    gradients weigh as the cross-entropy's do (Hinton et al., "Distilling the knowledge")."""
    t = DISTIL_TEMPERATURE
    log_p = torch.log_softmax(logits / t, dim=1)
    q = torch.softmax(kept / t, dim=1)
    return nn.functional.kl_div(log_p, q, reduction="batchmean") * t * t


def load_trained(kind: str, work: Path) -> nn.Module:
    """The model a checkpoint in ``work`` holds: "locator", "locator-tuned", "locator-folded",
    "locator-grown", "classifier", "wider", "verifier", "refiner" or "face"."""
    from model.recogniser.nets import FaceReader, Refiner, Verifier

    makers = {
        "face": FaceReader,
        "verifier": Verifier,
        "refiner": Refiner,
        "locator": Locator,
        "locator-tuned": Locator,
        "locator-grown": lambda: Locator(fine=True),
        "locator-folded": Locator,
    }
    model = makers.get(kind, Classifier)()
    state = torch.load(work / f"{kind}.ckpt", weights_only=False, map_location="cpu")
    model.load_state_dict(state["model"])
    return model.eval()


def train_and_export_verifier(args: argparse.Namespace) -> None:
    """Mine the verifier's crops with the exported locator (the finished one: the verifier
    judges the marks inference makes), train it, export it beside the other two."""
    from model.recogniser.export import export_verifier
    from model.recogniser.verify import mine_verifier_samples, train_verifier

    samples = args.work / "verifier-samples.npz"
    if not samples.exists():
        locator = args.verify_with or args.out / "locator.onnx"
        mine_verifier_samples(args.scenes, locator, samples, seed=args.seed)
    steps = (args.verifier_steps, args.batch * 8, args.seed)
    train_verifier(samples, args.work, *steps, args.device, args.workers)
    export_verifier(args.work, args.out)


def train_and_export_refiner(args: argparse.Namespace) -> None:
    """Cut the refiner's drawn misses from the scenes' labels and mine the exported locator's
    own marks (the finished one, as for the verifier), train it, export it beside the others."""
    from model.recogniser.export import export_refiner
    from model.recogniser.refine import cut_refiner_samples, mine_refiner_samples, train_refiner

    samples, mined = args.work / "refiner-samples.npz", args.work / "refiner-mined.npz"
    if not samples.exists():
        cut_refiner_samples([args.scenes], samples, seed=args.seed)
    if not mined.exists():
        mine_refiner_samples(args.scenes, args.verify_with or args.out / "locator.onnx", mined)
    steps = (args.refiner_steps, args.batch * 8, args.seed)
    train_refiner(samples, args.work, *steps, mined, args.device, args.workers)
    export_refiner(args.work, args.out)


def train_and_export_face_reader(args: argparse.Namespace) -> None:
    """Cut the face reader's faces from the scenes' labels (``faces.py``), train it, export it
    beside the others."""
    from model.recogniser.export import export_face_reader
    from model.recogniser.faces import cut_face_samples, train_face_reader

    samples = args.work / "face-samples.npz"
    if not samples.exists():
        cut_face_samples(args.scenes, samples, seed=args.seed)
    steps = (args.face_steps, args.batch * 8, args.seed)
    train_face_reader(samples, args.work, *steps, args.device, args.workers)
    export_face_reader(args.work, args.out)


def train_and_export_wider(args: argparse.Namespace) -> None:
    """Cut the wider classifier's crops (``contract.py``) around the scenes' labelled indices,
    mine them at the exported locator's marks (the finished one, as for the verifier), train
    it as the classifier is trained, export it beside the others. No crops half beside an
    index are cut as "not an index": a crop this tall, so moved, still holds the index (the
    wider classifier picks a card, never whether it is one)."""
    from model.recogniser.export import export_wider
    from model.recogniser.mine import mine_classifier_samples
    from model.recogniser.targets import WIDER

    samples, mined = args.work / "wider-samples.npz", args.work / "wider-mined.npz"
    if not samples.exists():
        cut_classifier_samples(args.scenes, samples, seed=args.seed, crop=WIDER, aside=0.0)
    if not mined.exists():
        locator = args.verify_with or args.out / "locator.onnx"
        mine_classifier_samples(args.scenes, locator, mined, wider=True)
    batch = args.batch * 8
    steps = (args.wider_steps, batch, args.seed)
    train_classifier(
        samples, args.work, *steps, mined, name="wider", device=args.device, workers=args.workers
    )
    export_wider(args.work, args.out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m model.recogniser.train")
    parser.add_argument(
        "stage",
        choices=(
            "cut",
            "locator",
            "mine",
            "classifier",
            "grow",
            "tune",
            "fold",
            "verifier",
            "refiner",
            "wider",
            "face",
            "export",
            "average",
            "quantize",
            "all",
        ),
    )
    parser.add_argument("--scenes", type=Path, required=True, help="a folder of `handfoot synth`")
    parser.add_argument("--work", type=Path, required=True, help="samples and checkpoints")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="where the exported models are written; `tune` and `fold` write their locator "
        "there as locator.onnx (default: model/, the shipped models)",
    )
    parser.add_argument("--locator-steps", type=int, default=20000)
    parser.add_argument(
        "--locator-more",
        type=int,
        nargs="*",
        default=[24000],
        help="steps of each warm restart after --locator-steps (0 restarts: none given)",
    )
    parser.add_argument(
        "--grow-steps",
        type=int,
        default=0,
        help="steps of the fine locator after the restarts (default 0: not grown, see grow.py)",
    )
    parser.add_argument(
        "--grow-from",
        type=Path,
        help="the ONNX locator to grow (default: the trained one in --work)",
    )
    parser.add_argument(
        "--tune-steps",
        type=int,
        default=4000,
        help="steps of `tune` (see tune_locator), and of `fold`",
    )
    parser.add_argument(
        "--tune-from",
        type=Path,
        default=Path(__file__).resolve().parent.parent / "locator.onnx",
        help="the ONNX locator `tune` goes on from (default: the shipped one)",
    )
    parser.add_argument(
        "--small-focus",
        type=float,
        default=1.0,
        help="`tune`: crops holding an index under 6 px on its short side drawn this many "
        "times as often (default 1: as any other)",
    )
    parser.add_argument(
        "--peaks",
        choices=PEAKS,
        default="round",
        help="every stage that trains the locator: the heat peak taught round an index centre: "
        "round, as wide as the index is tall (every shipped locator), or oval, as wide and "
        "tall as the index (default round)",
    )
    parser.add_argument(
        "--fold",
        type=float,
        default=1.0,
        help="`fold`: weight of the divergence of one pass's heat from the mean of four turns "
        "(default 1)",
    )
    parser.add_argument(
        "--classifier-from",
        type=Path,
        help="an ONNX classifier to go on training instead of starting from scratch",
    )
    parser.add_argument("--classifier-steps", type=int, default=6000)
    parser.add_argument(
        "--distil",
        type=float,
        default=0.0,
        help="with --classifier-from: weight of the new model's divergence from that one's "
        "class probabilities (default 0: none)",
    )
    parser.add_argument(
        "--verifier-steps", type=int, default=3000, help="(0: `all` trains no verifier)"
    )
    parser.add_argument(
        "--refiner-steps", type=int, default=8000, help="(0: `all` trains no refiner)"
    )
    parser.add_argument(
        "--wider-steps", type=int, default=5000, help="(0: `all` trains no wider classifier)"
    )
    parser.add_argument(
        "--face-steps", type=int, default=2500, help="(0: `all` trains no face reader)"
    )
    parser.add_argument(
        "--verify-with",
        type=Path,
        help="`verifier`, `refiner`, `wider`: the ONNX locator whose marks they learn from "
        "(default: --out's)",
    )
    parser.add_argument(
        "--average-from",
        type=Path,
        nargs="+",
        default=[],
        metavar="FILE.onnx",
        help="`average`: the models the exported ones in --out were trained on from; each is "
        "averaged with the file of its kind in --out (see average.py)",
    )
    parser.add_argument(
        "--average-share",
        type=float,
        default=0.5,
        help="`average`: the share of the models in --out, weight by weight (default 0.5)",
    )
    parser.add_argument(
        "--calibration-scenes",
        type=int,
        default=40,
        help="`quantize`: the first scenes of --scenes whose crops set the int8 models' ranges "
        "(default 40; 0: `all` makes no int8 models)",
    )
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--crops-per-scene", type=int, default=12, help="locator crops per scene")
    parser.add_argument(
        "--cut-parts",
        type=int,
        default=1,
        help="`cut`, `all`: the scenes dealt into this many parts, part k's locator crops cut "
        "with --seed + k, every core cutting one part at a time (default 1: one part, --seed); "
        "the crops depend on the parts, not on the cores",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--device",
        default="cpu",
        help="where every stage that trains a model trains, e.g. cuda on a machine with an "
        "accelerator (default cpu; mining and cutting samples run on the CPU)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="every stage that trains a model: processes that draw its batches ahead of the "
        "model, the same batches as drawn in one (default 0: drawn in one)",
    )
    args = parser.parse_args(argv)
    if args.small_focus <= 0:
        parser.error(f"--small-focus is a positive factor, not {args.small_focus}")
    if args.fold < 0:
        parser.error(f"--fold is a weight of 0 or more, not {args.fold}")
    if args.cut_parts < 1:
        parser.error(f"--cut-parts is a count of 1 or more, not {args.cut_parts}")
    if args.workers < 0:
        parser.error(f"--workers is a count of 0 or more, not {args.workers}")
    try:
        where = torch.device(args.device)
    except RuntimeError:
        parser.error(f"--device {args.device!r} is not a device: cpu, cuda or cuda:N")
    if where.type == "cuda" and not torch.cuda.is_available():
        parser.error(f"--device {args.device}: this machine has no CUDA accelerator")
    if args.distil > 0 and args.classifier_from is None:
        parser.error(
            "--distil keeps a classifier near the one it goes on from: give --classifier-from"
        )
    torch.set_num_threads(args.threads)
    args.work.mkdir(parents=True, exist_ok=True)
    locator_samples = args.work / "locator-samples.npz"
    classifier_samples = args.work / "classifier-samples.npz"
    started = time.perf_counter()
    if args.stage in ("cut", "all"):
        if not locator_samples.exists():
            cut_locator_parts(
                args.scenes,
                locator_samples,
                args.cut_parts,
                per_scene=args.crops_per_scene,
                seed=args.seed,
                processes=os.cpu_count() or 1,
            )
        if not classifier_samples.exists():
            cut_classifier_samples(args.scenes, classifier_samples, seed=args.seed)
    more = tuple(n for n in args.locator_more if n > 0)
    locate = (locator_samples, args.work, args.locator_steps, args.batch, args.seed)
    teaching = Teaching(args.peaks, args.device, args.workers)
    if args.stage == "locator":
        train_locator(*locate, more, teaching)
    elif args.stage == "all":
        # The classifier learns from the marks of the locator at the end of its first round:
        # its false marks are more varied than the finished locator's, and a classifier mined
        # from them lets fewer phantoms through (measured: 95 against 140 on 60 validation
        # scenes). The warm restarts come after.
        train_locator(*locate, teaching=teaching)
    mined = args.work / "classifier-mined.npz"
    if args.stage in ("mine", "all") and not mined.exists():
        # The classifier learns from the trained locator's own marks: export the locator
        # first, run it over the scenes, label each mark against the truth.
        from model.recogniser.export import export_locator
        from model.recogniser.mine import mine_classifier_samples

        located = export_locator(args.work, args.work / "located")
        mine_classifier_samples(args.scenes, located, mined)
    if args.stage in ("classifier", "all"):
        train_classifier(
            classifier_samples,
            args.work,
            args.classifier_steps,
            args.batch * 8,
            args.seed,
            mined if mined.exists() else None,
            args.classifier_from,
            args.distil,
            device=args.device,
            workers=args.workers,
        )
    if args.stage == "all" and more:
        train_locator(*locate, more, teaching)
    if args.stage == "grow" or (args.stage == "all" and args.grow_steps > 0):
        start = args.grow_from
        if start is None:
            from model.recogniser.export import export_locator

            start = export_locator(args.work, args.work / "restarted")
        grow = (locator_samples, args.work, args.grow_steps, args.batch, args.seed, start)
        grow_locator(*grow, teaching)
    if args.stage == "tune":
        from model.recogniser.export import export_locator

        tune_locator(
            locator_samples,
            args.work,
            args.tune_steps,
            args.batch,
            args.seed,
            args.tune_from,
            args.small_focus,
            teaching,
        )
        export_locator(args.work, args.out, "locator-tuned")
    if args.stage == "fold":
        from model.recogniser.export import export_locator

        folded_samples = args.work / "locator-folded-samples.npz"
        if not folded_samples.exists():
            cut_folded_samples(
                args.scenes, folded_samples, args.tune_from, args.crops_per_scene, args.seed
            )
        fold_locator(
            folded_samples,
            args.work,
            args.tune_steps,
            args.batch,
            args.seed,
            args.tune_from,
            args.fold,
            teaching,
        )
        export_locator(args.work, args.out, "locator-folded")
    if args.stage in ("export", "all"):
        from model.recogniser.export import export_all

        export_all(args.work, args.out)
    if args.stage == "verifier" or (args.stage == "all" and args.verifier_steps > 0):
        train_and_export_verifier(args)
    if args.stage == "refiner" or (args.stage == "all" and args.refiner_steps > 0):
        train_and_export_refiner(args)
    if args.stage == "wider" or (args.stage == "all" and args.wider_steps > 0):
        train_and_export_wider(args)
    if args.stage == "face" or (args.stage == "all" and args.face_steps > 0):
        train_and_export_face_reader(args)
    if args.stage == "average":
        from model.recogniser.average import average_onnx, kind_of

        if not args.average_from:
            parser.error("`average` needs --average-from: the models those in --out went on from")
        for start in args.average_from:
            exported = args.out / f"{kind_of(start)}.onnx"
            average_onnx(start, exported, exported, args.average_share)
    if args.stage == "quantize" or (args.stage == "all" and args.calibration_scenes > 0):
        from model.recogniser.quantize import quantize_models

        for done in quantize_models(args.scenes, args.out, args.calibration_scenes, args.seed):
            print(
                f"{done.path.name}: decides as the float model on {done.agreement:.2%} of "
                f"{done.checked} crops (a probability changed by at most "
                f"{done.largest_change:.3f})"
            )
    print(f"{args.stage} done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

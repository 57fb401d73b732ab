"""The training loop every model shares: resumable, reproducible steps on the CPU or an
accelerator.

Every ``CHECKPOINT_EVERY`` steps the model, optimiser, step, losses and random state go to
``<work>/<name>.ckpt`` (written to a temporary file, then renamed); starting again resumes
from there. The batch of step k depends only on (seed, k).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from model.recogniser.nets import Classifier, Locator
from scanner.vision import contract as spec

CHECKPOINT_EVERY = 50


def normalise(images: np.ndarray) -> torch.Tensor:
    """uint8 (N, H, W, 3) RGB → the models' input (N, 3, H, W)."""
    x = torch.from_numpy(images).permute(0, 3, 1, 2).float()
    return (x / 255.0 - spec.MEAN) / spec.STD


GREY_SHARE = 0.3  # of the recoloured samples, those left with no colour at all


def recolour(x: torch.Tensor, generator: torch.Generator, share: float) -> torch.Tensor:
    """A ``share`` of the samples (the models' input, normalised) seen as a dull or cast camera
    sees them: colour kept at a random 0–100 % of its strength (GREY_SHARE of them none, as a
    greyscale photo), then each channel's gain drawn within ±25 % (white balance off either
    way). The labels stay: where hue fails, the suit's shape and the ink against its own paper
    still tell red from black (the real webcam photos' red read as black:
    model/experiments/colour.md)."""
    n = x.shape[0]
    chosen = torch.rand(n, generator=generator) < share
    if not chosen.any():
        return x
    pixels = x * spec.STD + spec.MEAN
    luma = torch.tensor([0.299, 0.587, 0.114]).view(1, 3, 1, 1)
    grey = (pixels * luma).sum(1, keepdim=True)
    kept = torch.rand(n, 1, 1, 1, generator=generator)
    kept[torch.rand(n, generator=generator) < GREY_SHARE] = 0.0
    gains = 1 + 0.25 * (torch.rand(n, 3, 1, 1, generator=generator) - 0.5) * 2
    cast = (grey + kept * (pixels - grey)) * gains
    return torch.where(chosen.view(n, 1, 1, 1), (cast - spec.MEAN) / spec.STD, x)


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

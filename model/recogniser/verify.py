"""The verifier: a second look at each marked index with the card around it.

The classifier reads a tight crop of the index (1.5 index heights), which on a printed cloth
(lace, terrazzo, a card-table print) can look just like a black 9 or a pip: most phantoms on
one side's tables were such marks, some read 0.9 sure. A wider crop shows what the tight one
cannot: whether paper and a card's corner lie around the mark. The verifier learns that one
question from the trained locator's own marks on the training scenes: a mark on a labelled
index (as ``mine.label_mark`` reads it) is on a card; a mark whose centre lies on no card at
all is not. False marks on a card (pips, court art) are left out: the classifier already
learns those, and a verifier taught them learnt to doubt every court card of an unseen design.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from model.recogniser.dataset import scene_files
from model.recogniser.mine import label_mark, locator_marks
from model.recogniser.targets import CLASS_INDEX, index_truths
from scanner.vision import contract as spec

MINE_PEAK = 0.1  # down to the recogniser's faint marks, which are read too
KEEP_TRUE = 0.35  # share of the true marks kept: they are plentiful, the false ones few
VERIFIER_RATE = 2e-3


def on_a_card(labels: dict, x: float, y: float) -> bool:
    """Whether (x, y) lies inside any labelled card's outline (covered parts included)."""
    return any(
        cv2.pointPolygonTest(np.array(card["corners"], np.float32), (x, y), False) >= 0
        for card in labels["cards"]
    )


def mine_verifier_samples(
    scenes: Path,
    locator: Path,
    out: Path,
    *,
    seed: int = 0,
    keep_true: float = KEEP_TRUE,
    turns: tuple[int, ...] = (0, 1, 2, 3),
) -> Path:
    """Run the ``locator`` ONNX file over every scene of ``scenes`` as the recogniser does
    (``turns``, marks down to MINE_PEAK) and save the context crops of its marks: label 1 on a
    labelled index (a ``keep_true`` share of them, drawn with ``seed``), 0 on no card."""
    from scanner.vision.contract import Contract
    from scanner.vision.preprocess import context_crops

    contract = Contract.from_spec()
    rng = np.random.default_rng(seed)
    none = CLASS_INDEX[spec.NOT_AN_INDEX]
    crops, labels = [], []
    paths = scene_files(scenes)
    for frame, truth, marks in locator_marks(paths, locator, MINE_PEAK, turns, "verifier marks"):
        indices = index_truths(truth)
        kept = []
        for mark in marks:
            label = label_mark(mark, indices)
            if label is None:
                continue
            if label != none and rng.random() < keep_true:
                kept.append((mark, 1))
            elif label == none and not on_a_card(truth, mark.x, mark.y):
                kept.append((mark, 0))
        crops.append(context_crops(frame, [mark for mark, _ in kept], contract))
        labels += [label for _, label in kept]
    if 0 not in labels or 1 not in labels:  # nothing saved: a better locator mines again
        raise ValueError(
            f"{locator} marks no index on a card or no mark off the cards in {scenes}: "
            "the verifier cannot learn from it (is the locator trained?)"
        )
    np.savez(out, crops=np.concatenate(crops), labels=np.array(labels, np.int8))
    print(f"mined {len(labels)} context crops ({len(labels) - sum(labels)} off every card)")
    return out


def colour_jitter(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Light, contrast and a colour cast per sample (lamps and cameras differ), on normalised
    crops."""
    n = x.shape[0]
    gain = 0.7 + 0.6 * torch.rand(n, 3, 1, 1, generator=generator)
    bias = 0.3 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5)
    pixels = (x * spec.STD + spec.MEAN) * gain + bias
    return (pixels.clamp(0, 1) - spec.MEAN) / spec.STD


def train_verifier(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    device: str = "cpu",
    workers: int = 0,
) -> nn.Module:
    """Half of every batch on a card, half off every card (``device``, ``workers``: see
    ``loop.run_steps``)."""
    from model.recogniser.loop import Batches, normalise, run_steps
    from model.recogniser.nets import Verifier

    torch.manual_seed(seed)
    data = np.load(samples)
    crops, labels = data["crops"], data["labels"].astype(np.float32)
    true, false = np.flatnonzero(labels == 1), np.flatnonzero(labels == 0)
    if not len(true) or not len(false):
        raise ValueError(f"{samples}: the verifier needs marks both on and off cards")
    model = Verifier()
    criterion = nn.BCEWithLogitsLoss()

    def draw(step: int, generator: torch.Generator) -> tuple[torch.Tensor, ...]:
        half = batch // 2
        pick = np.concatenate(
            [
                true[torch.randint(len(true), (half,), generator=generator).numpy()],
                false[torch.randint(len(false), (batch - half,), generator=generator).numpy()],
            ]
        )
        x = colour_jitter(normalise(crops[pick]), generator)
        return x, torch.from_numpy(labels[pick])[:, None]

    def loss_of(drawn: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict]:
        x, y = drawn
        logits = model(x)
        accuracy = float(((logits > 0).float() == y).float().mean())
        return criterion(logits, y), {"accuracy": accuracy}

    rounds = [(steps, VERIFIER_RATE)]
    batches = Batches(draw, loss_of)
    run_steps("verifier", model, rounds, work, batches, seed, None, device, workers)
    return model

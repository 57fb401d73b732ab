"""Training the classifier (and the wider classifier, the same way on its own crops): balanced
batches, the locator's mined marks mixed in, and going on from an ONNX classifier."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from model.recogniser.dataset import joined, save_whole
from model.recogniser.loop import Batches, jitter, normalise, recolour, run_steps
from model.recogniser.nets import Classifier
from model.recogniser.targets import CLASS_INDEX
from scanner.vision import contract as spec

MINED_TRUE, MINED_FALSE = 0.35, 0.2  # shares of a classifier batch drawn from mined crops
REAL_NONE = 0.2  # of the real crops' share, the part drawn from marks on no index


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
    real: Path | None = None,
    real_share: float = 0.0,
    recoloured: float = 0.0,
) -> Classifier:
    """Train the classifier on ``samples``; with ``mined`` (crops where the trained locator
    marks, see ``mine.py``), half of every batch comes from those. With ``start`` (an ONNX
    classifier) it goes on from that model at a tenth of the rate, its batch norms fixed;
    with ``distil`` > 0 as well, the loss adds that weight times the divergence of its class
    probabilities from the start model's on the same crops (DISTIL_TEMPERATURE), so a round
    on new designs keeps what the start model reads elsewhere. ``name``: its checkpoint's and
    history's ("wider" for the wider classifier, trained the same way on its own crops).
    ``device``, ``workers``: see ``run_steps``. With ``real`` (crops cut from labelled real
    photos, ``real_crops.py``), ``real_share`` of every batch comes from those (REAL_NONE of
    it from their marks on no index), and the divergence from the start model counts only on
    the other crops: a real crop is there to be read otherwise than the start model reads it.
    ``recoloured``: the share of every batch seen dull, grey or cast (``loop.recolour``); the
    start model's divergence is taken on those crops as they were, so it teaches what the
    colour was, not what a dulled crop looked like to the start model."""
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
    rendered = np.ones(len(classes), bool)
    if real is not None and real_share > 0:
        photos = np.load(real)
        real_classes = photos["classes"].astype(np.int64)
        crops = np.concatenate([crops, photos["crops"]])
        classes = np.concatenate([classes, real_classes])
        rendered = np.concatenate([rendered, np.zeros(len(real_classes), bool)])
        weights_np = np.concatenate([weights_np * (1 - real_share), _real_weights(real_classes)])
        weights_np[~rendered] *= real_share
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
        x, y = jitter(normalise(crops[pick]), generator), torch.from_numpy(classes[pick])
        seen = recolour(x, generator, recoloured) if recoloured > 0 else x
        return seen, y, torch.from_numpy(rendered[pick]), x

    def loss_of(drawn: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict]:
        seen, y, kept_here, x = drawn
        logits = model(seen)
        loss = criterion(logits, y)
        accuracy = float((logits.argmax(1) == y).float().mean())
        if teacher is None or not kept_here.any():
            return loss, {"accuracy": accuracy}
        with torch.no_grad():
            kept = teacher(x[kept_here])
        drift = _divergence(logits[kept_here], kept)
        return loss + distil * drift, {"accuracy": accuracy, "drift": drift.item()}

    rounds = [(steps, rate)]
    batches = Batches(draw, loss_of)
    run_steps(name, model, rounds, work, batches, seed, prepare, device, workers)
    return model


def merge_crops(parts: list[Path], out: Path) -> Path | None:
    """Real crops of several files (``real_crops.py``) as one: None for none, the file itself
    for one, else their crops and classes together in ``out``."""
    if len(parts) <= 1:
        return parts[0] if parts else None
    return save_whole(out, joined([np.load(part) for part in parts], ("crops", "classes")))


def _real_weights(classes: np.ndarray) -> np.ndarray:
    """Sampling weights of real crops, summing to 1: the cards balanced as ``_balanced``
    does, REAL_NONE on the marks on no index."""
    none = classes == CLASS_INDEX[spec.NOT_AN_INDEX]
    if none.all() or not none.any():
        return _balanced(classes)
    weights = np.where(none, 0.0, _balanced(np.where(none, 0, classes)))
    weights = (1 - REAL_NONE) * weights / weights.sum()
    weights[none] = REAL_NONE / int(none.sum())
    return weights


DISTIL_TEMPERATURE = 2.0  # softens both models' probabilities, so near misses count too


def _divergence(logits: torch.Tensor, kept: torch.Tensor) -> torch.Tensor:
    """KL(start model ‖ model) of the tempered class probabilities, scaled by T² so its
    gradients weigh as the cross-entropy's do (Hinton et al., "Distilling the knowledge")."""
    t = DISTIL_TEMPERATURE
    log_p = torch.log_softmax(logits / t, dim=1)
    q = torch.softmax(kept / t, dim=1)
    return nn.functional.kl_div(log_p, q, reduction="batchmean") * t * t

"""A deck profile: the classifier adapted to a table's own cards, without changing it.

A profile is taught index crops of one deck, each with its code, as the classifier reads them
(``Taught``), and the marks of the same photos that are no card's index ("none": the table's
own phantoms). Loaded for a classifier, each crop and a few altered copies of it (lighter,
darker, warmer, cooler, a little turned or shifted: a table's light and angle change) are read
once; a small correction of the classifier's logits is then fitted to them, a linear map of
the classifier's features (its second output, pooled and of unit length) held near zero by a
ridge, so a class the deck was never shown stays as the classifier reads it. Reading with the
profile, the correction is added to the classifier's logits; where the corrected reading names
another card than the classifier's own, the reading asks for a check.

Why a fitted correction and not the nearest taught examples: across photos of the same deck,
the nearest example named the right card for 38 % (black deck) and 67 % (light deck) of index
crops where the classifier alone read 78 % and 97 %, and the correction 80 % and 98 %
(``model/experiments/deck-profiles.md``). Fitting takes a second or two on a CPU; the shipped
models never change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

SCALE = 10.0  # the features' weight in the fit: unit features are small beside logits
RIDGE = 0.3  # how firmly the correction is held near zero
STEPS = 300  # gradient steps of the fit (fixed: a profile is the same every time it is fitted)
RATE = 0.5
POOL = (3, 2)  # the classifier's feature maps averaged to this many rows and columns


@dataclass(frozen=True)
class Taught:
    """One index crop a deck was taught: the code it shows ("none": a mark that is no card's
    index) and the crop [h, w, 3] uint8 as the classifier reads it, before normalising."""

    code: str
    crop: np.ndarray


@dataclass(frozen=True)
class Profile:
    """A deck's correction of the classifier's logits: ``weights`` [D, C] on the pooled unit
    features, ``bias`` [C]; ``taught``: the crops it was fitted to, before the altered copies;
    ``codes``: the classes they showed."""

    name: str
    weights: np.ndarray
    bias: np.ndarray
    taught: int
    codes: tuple[str, ...]

    def adapt(self, logits: np.ndarray, features: np.ndarray) -> np.ndarray:
        """The classifier's ``logits`` [N, C] corrected for this deck, from its ``features``."""
        if not self.taught or not len(logits):
            return logits
        return logits + SCALE * pooled(features) @ self.weights + self.bias


def learn(
    name: str,
    taught: Sequence[Taught],
    classes: Sequence[str],
    read: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
) -> Profile:
    """The profile of ``taught``: each crop and its altered copies read by ``read`` (uint8
    crops [N, h, w, 3] → the classifier's logits [N, C] and feature maps [N, channels, h,
    w]), and the
    correction fitted to them. A code none of ``classes`` is refused with ValueError."""
    unknown = sorted({t.code for t in taught} - set(classes))
    if unknown:
        raise ValueError(f"not a class the classifier reads: {', '.join(unknown)}")
    codes = tuple(code for code in classes if any(t.code == code for t in taught))
    if not taught:
        return Profile(name, np.zeros((0, len(classes))), np.zeros(len(classes)), 0, ())
    crops, labels = [], []
    for t in taught:
        copies = altered(t.crop)
        crops.extend(copies)
        labels.extend([classes.index(t.code)] * len(copies))
    logits, features = read(np.stack(crops))
    weights, bias = fit(logits, pooled(features), np.asarray(labels), len(classes))
    return Profile(name, weights, bias, len(taught), codes)


def fit(
    logits: np.ndarray, features: np.ndarray, labels: np.ndarray, classes: int
) -> tuple[np.ndarray, np.ndarray]:
    """The correction (weights [D, C], bias [C]) that, added to ``logits``, reads ``labels``:
    softmax regression by plain gradient steps from zero, ridge on the weights."""
    weights = np.zeros((features.shape[1], classes))
    bias = np.zeros(classes)
    wanted = np.eye(classes)[labels]
    logits = logits.astype(np.float64)
    for _ in range(STEPS):
        z = logits + SCALE * features @ weights + bias
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        step = (p - wanted) / len(labels)
        weights -= RATE * (SCALE * features.T @ step + RIDGE * weights)
        bias -= RATE * step.sum(axis=0)
    return weights, bias


def pooled(features: np.ndarray) -> np.ndarray:
    """The classifier's feature maps [N, channels, h, w] averaged over blocks to POOL rows and
    columns (maps that do not divide so are cut to fit), each row of unit length [N, D]."""
    rows, columns = POOL
    n, channels, h, w = features.shape
    h, w = h - h % rows, w - w % columns
    maps = features[:, :, :h, :w].astype(np.float64)
    blocks = maps.reshape(n, channels, rows, h // rows, columns, w // columns)
    out = blocks.mean(axis=(3, 5)).reshape(n, -1)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def altered(crop: np.ndarray) -> list[np.ndarray]:
    """``crop`` and copies of it as another light and angle would show it: darker, lighter,
    warmer, cooler, turned 4° each way, shifted a pixel. Fixed, so a profile is the same
    every time it is fitted."""
    h, w = crop.shape[:2]
    as_float = crop.astype(np.float32)
    copies = [crop]
    for gain in ((0.75, 0.75, 0.75), (1.2, 1.2, 1.2), (1.1, 1.0, 0.85), (0.88, 1.0, 1.12)):
        copies.append(np.clip(as_float * np.float32(gain), 0, 255).astype(np.uint8))
    for angle, shift in ((4.0, (0.0, 0.0)), (-4.0, (0.0, 0.0)), (0.0, (1.0, -1.0))):
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        turn[:, 2] += shift
        copies.append(cv2.warpAffine(crop, turn, (w, h), borderMode=cv2.BORDER_REPLICATE))
    return copies

"""A deck profile: the classifier adapted to a table's own cards, without changing it.

A profile is taught index crops of one deck, each with its code, as the classifier reads them
(``Taught``). Loaded for a classifier, each crop of a card and a few altered copies of it
(lighter, darker, warmer, cooler, a little turned or shifted: a table's light and angle change)
are read once, and a small correction is fitted to them: a linear map of the classifier's
features (its second output, pooled and of unit length), held near zero by a ridge, that moves
the logits of the cards taught. Reading with the profile, the probability the classifier gives
the taught cards together is shared among them as the corrected logits say; "not an index" and
the cards never taught keep what the classifier gives them. Where the corrected reading names
another card than the classifier's own, the reading asks for a check.

Why a correction and not the nearest taught examples, and why it leaves "not an index" alone:
``model/experiments/deck-profiles.md``. Fitting takes about a second on a CPU; the shipped
models never change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

SCALE = 10.0  # the features' weight in the fit: unit features are small beside logits
RIDGE = 1.0  # how firmly the correction is held near zero (below 2: RATE × RIDGE < 1)
STEPS = 300  # gradient steps of the fit (fixed: a profile is the same every time it is fitted)
RATE = 0.5
POOL = (3, 2)  # the classifier's feature maps averaged to this many rows and columns
# A crop whose pooled features lie at least this close (cosine) to a crop the players corrected
# is that card again, read as they said. On 850 real crops of two decks, no two of different
# codes came closer than 0.83, while 28 % had a crop of their code in another photo this close
# (model/experiments/deck-profiles.md).
SAME_CARD = 0.85
NOT_AN_INDEX = "none"  # the contract's class for a mark that is no card's index


@dataclass(frozen=True)
class Taught:
    """One index crop a deck was taught: the code it shows ("none": a mark that is no card's
    index) and the crop [h, w, 3] uint8 as the classifier reads it, before normalising."""

    code: str
    crop: np.ndarray
    corrected: bool = False  # players corrected the card to ``code`` in a scan: remembered


@dataclass(frozen=True)
class Profile:
    """A deck's correction of the classifier: among the cards it was taught (``classes``,
    indices into the classifier's classes), ``weights`` [D, T] on the pooled unit features
    and ``bias`` [T] move the classifier's logits; ``taught``: the crops of cards it was
    fitted to, before the altered copies; ``codes``: the cards they showed."""

    name: str
    classes: np.ndarray  # [T] int
    weights: np.ndarray
    bias: np.ndarray
    taught: int
    codes: tuple[str, ...]
    # the pooled features [M, D] of the crops players corrected, and their classes [M]
    remembered: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    remembered_classes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    none: int = -1  # the class "not an index" (-1: the classifier has none)

    def adapt(self, logits: np.ndarray, features: np.ndarray) -> np.ndarray:
        """The classifier's ``logits`` [N, C] corrected for this deck, from its ``features``:
        the probability the classifier gives the taught cards together is shared among them
        anew; "not an index" and the cards never taught keep theirs, so a profile taught part
        of a deck, or no phantoms, changes only which of the taught cards a mark is."""
        if not (len(self.classes) or len(self.remembered_classes)) or not len(logits):
            return logits
        z = logits.astype(np.float64)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        if len(self.classes):
            among = z[:, self.classes] + SCALE * pooled(features) @ self.weights + self.bias
            among -= among.max(axis=1, keepdims=True)
            shares = np.exp(among)
            shares /= shares.sum(axis=1, keepdims=True)
            p[:, self.classes] = p[:, self.classes].sum(axis=1, keepdims=True) * shares
        if len(self.remembered_classes):
            # a card players corrected, seen again: their code takes every card's share, taught
            # or not (the classifier's misreading may be a card never taught); "not an index"
            # keeps its own
            likeness = pooled(features) @ self.remembered.T
            best = likeness.argmax(axis=1)
            again = np.flatnonzero(likeness[np.arange(len(best)), best] >= SAME_CARD)
            kept = p[again, self.none] if self.none >= 0 else np.zeros(len(again))
            p[again] = 0.0
            if self.none >= 0:
                p[again, self.none] = kept
            p[again, self.remembered_classes[best[again]]] = 1.0 - kept
        return np.log(np.maximum(p, 1e-12))


def learn(
    name: str,
    taught: Sequence[Taught],
    classes: Sequence[str],
    read: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
) -> Profile:
    """The profile of ``taught``: each crop of a card and its altered copies read by ``read``
    (uint8 crops [N, h, w, 3] → the classifier's logits [N, C] and feature maps [N, channels,
    h, w]), and the correction fitted to them. Crops taught as "not an index" are kept with a
    deck but not fitted. A code none of ``classes`` is refused with ValueError."""
    unknown = sorted({t.code for t in taught} - set(classes))
    if unknown:
        raise ValueError(f"not a class the classifier reads: {', '.join(unknown)}")
    cards = [t for t in taught if t.code != NOT_AN_INDEX]
    none = list(classes).index(NOT_AN_INDEX) if NOT_AN_INDEX in classes else -1
    remembered, remembered_classes = _remembered([t for t in cards if t.corrected], classes, read)
    # the corrected crops are remembered, not fitted: fitted, a few of them moved right
    # readings of other cards (model/experiments/deck-profiles.md)
    fitted = [t for t in cards if not t.corrected]
    codes = tuple(code for code in classes if any(t.code == code for t in fitted))
    if len(codes) < 2:  # fewer than two cards taught: nothing to tell apart
        nothing = np.zeros(0, np.int64)
        return Profile(
            name,
            nothing,
            np.zeros((0, 0)),
            np.zeros(0),
            len(cards),
            codes,
            remembered,
            remembered_classes,
            none,
        )
    among = np.asarray([classes.index(code) for code in codes], np.int64)
    crops, labels = [], []
    for t in fitted:
        copies = altered(t.crop)
        crops.extend(copies)
        labels.extend([codes.index(t.code)] * len(copies))
    logits, features = read(np.stack(crops))
    weights, bias = fit(logits[:, among], pooled(features), np.asarray(labels), len(codes))
    return Profile(
        name, among, weights, bias, len(cards), codes, remembered, remembered_classes, none
    )


def _remembered(
    corrected: Sequence[Taught],
    classes: Sequence[str],
    read: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray]:
    """The pooled features [M, D] of the crops players ``corrected`` and their classes [M]."""
    if not corrected:
        return np.zeros((0, 0)), np.zeros(0, np.int64)
    _, features = read(np.stack([t.crop for t in corrected]))
    return pooled(features), np.asarray([classes.index(t.code) for t in corrected], np.int64)


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

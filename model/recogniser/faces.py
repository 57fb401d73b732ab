"""The face reader: a card lying in plain view read from its whole face.

An index a few pixels across reads as another rank of like shape (a 5 as an 8), and where a
fan's indices all read so, its cards agree on the wrong rank. The fan's top card shows its face
whole: the special deck's numeral and word fill its middle, a standard card's pips can be
counted, many times the index's size. The face reader learns that face, cut out upright from
the card's labelled outline (``scanner/vision/faces.py`` cuts it so from the outline the
recogniser reads), as one of the classifier's classes; cards more than half covered, cut the
same way, are "not an index", so that an outline on a covered card says nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from model.recogniser.dataset import scene_files
from model.recogniser.targets import CLASS_INDEX
from scanner.vision import contract as spec

FACE_RATE = 3e-3
SHOWN = 0.9  # a card this much in view shows its face
COVERED = (0.05, 0.3)  # … and one in view this much is "not an index"
KEEP_COVERED = 0.25  # the share of such cards cut: they are many
# The outline the recogniser reads is the locator's guess, scaled by the cards it measured: a
# few hundredths of the card off at each corner, and as likely turned half round.
CORNER_NOISE = 0.05  # of the card's diagonal
SIZE_NOISE = (0.88, 1.12)
SMALLEST = 0.35  # a face is learnt as small as this share of its size, scaled back up


def upright(card: dict) -> np.ndarray:
    """A labelled card's corners [4, 2]: its top-left (where its top-left index lies), top-right,
    bottom-right and bottom-left, as ``IndexCandidate.card_polygon`` gives them."""
    corners = np.array(card["corners"], np.float64)
    index = next(i for i in card["indices"] if i["corner"] == "top-left")
    first = int(np.argmin(np.hypot(*(corners - np.mean(index["quad"], axis=0)).T)))
    corners = np.roll(corners, -first, axis=0)
    if np.hypot(*(corners[1] - corners[0])) > np.hypot(*(corners[3] - corners[0])):
        corners = corners[[0, 3, 2, 1]]  # the other way round: top-right is along the short side
    return corners


def cut_face_samples(scenes: Path, out: Path, *, seed: int = 0) -> Path:
    """The faces of the cards of every scene in ``scenes`` that lie whole in the frame, cut out
    upright as the recogniser cuts them (``scanner.vision.faces.face_images``) from outlines
    moved as the recogniser's are (CORNER_NOISE, SIZE_NOISE, half the time turned half round):
    each card at least SHOWN in view as its class, a KEEP_COVERED share of those COVERED as
    "not an index"."""
    from scanner.vision.faces import face_images
    from scanner.vision.images import read_image

    rng = np.random.default_rng(seed)
    none = CLASS_INDEX[spec.NOT_AN_INDEX]
    faces, labels = [], []
    for path in scene_files(scenes):
        truth = json.loads(path.read_text(encoding="utf-8"))
        frame = read_image(path.parent / truth.get("image", path.with_suffix(".jpg").name))
        height, width = frame.shape[:2]
        outlines = []
        for card in truth["cards"]:
            corners = np.array(card["corners"], np.float64)
            if corners.min() < 0 or (corners[:, 0] > width).any() or (corners[:, 1] > height).any():
                continue
            shown = card["visible_fraction"]
            if shown >= SHOWN:
                label = CLASS_INDEX[card["code"]]
            elif COVERED[0] <= shown <= COVERED[1] and rng.random() < KEEP_COVERED:
                label = none
            else:
                continue
            outlines.append(_moved(upright(card), rng))
            labels.append(label)
        faces.append(face_images(frame, outlines))
    if not labels:
        raise ValueError(f"{scenes}: no card lies whole in any frame, so no face to learn")
    np.savez(out, faces=np.concatenate(faces), labels=np.array(labels, np.int64))
    print(f"cut {len(labels)} faces ({labels.count(none)} covered)")
    return out


def _moved(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    size = float(np.hypot(*(corners[2] - corners[0])))
    moved = corners + rng.normal(0.0, CORNER_NOISE * size, corners.shape)
    middle = moved.mean(axis=0)
    moved = middle + (moved - middle) * rng.uniform(*SIZE_NOISE)
    return np.roll(moved, 2, axis=0) if rng.random() < 0.5 else moved


def blurred(faces: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """uint8 faces [n, H, W, 3], each scaled down to between SMALLEST and its whole size and
    back (a card far from the camera), a third of them blurred (focus, motion), with light,
    colour cast and noise of their own."""
    out = np.empty(faces.shape, np.float32)
    height, width = faces.shape[1:3]
    for n, face in enumerate(faces.astype(np.float32)):
        scale = rng.uniform(SMALLEST, 1.0)
        if scale < 0.97:
            small = (max(8, round(width * scale)), max(10, round(height * scale)))
            face = cv2.resize(
                cv2.resize(face, small, interpolation=cv2.INTER_AREA), (width, height)
            )
        if rng.random() < 0.3:
            side = int(rng.integers(1, 4)) * 2 + 1
            face = cv2.GaussianBlur(face, (side, side), 0)
        face = face * rng.uniform(0.6, 1.3) + rng.uniform(-30.0, 30.0)
        face = face * rng.uniform(0.85, 1.15, 3) + rng.normal(
            0.0, rng.uniform(0.0, 8.0), face.shape
        )
        out[n] = face
    return np.clip(out, 0, 255).astype(np.uint8)


def train_face_reader(
    samples: Path,
    work: Path,
    steps: int,
    batch: int,
    seed: int,
    device: str = "cpu",
    workers: int = 0,
) -> nn.Module:
    """The face reader trained on ``samples`` (``cut_face_samples``), every face drawn as
    often, each ``blurred`` afresh (``device``, ``workers``: see ``loop.run_steps``)."""
    from model.recogniser.loop import Batches, normalise, run_steps
    from model.recogniser.nets import FaceReader

    torch.manual_seed(seed)
    data = np.load(samples)
    faces, labels = data["faces"], data["labels"]
    model = FaceReader()
    criterion = nn.CrossEntropyLoss(label_smoothing=0.05)

    def draw(step: int, generator: torch.Generator) -> tuple[torch.Tensor, ...]:
        pick = torch.randint(len(labels), (batch,), generator=generator).numpy()
        rng = np.random.default_rng(int(torch.randint(2**31, (1,), generator=generator)))
        return normalise(blurred(faces[pick], rng)), torch.from_numpy(labels[pick])

    def loss_of(drawn: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict]:
        x, y = drawn
        logits = model(x)
        accuracy = float((logits.argmax(dim=1) == y).float().mean())
        return criterion(logits, y), {"accuracy": accuracy}

    rounds = [(steps, FACE_RATE)]
    batches = Batches(draw, loss_of)
    run_steps("face", model, rounds, work, batches, seed, None, device, workers)
    return model

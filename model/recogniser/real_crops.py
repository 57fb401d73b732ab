"""Classifier crops cut from real photos whose corner indices are labelled (Pascal VOC boxes
named by card code, as ``../shared/data/real-train``): each mark the recogniser makes inside a
labelled box, cut as the classifier reads it, a few times turned and sized a little otherwise,
and labelled with the box's card; each mark far from every box, labelled "not an index". The
recogniser's own marks give the crops the geometry it reads them in; a labelled index it never
marks gives none (the locator's part).

    python -m model.recogniser.real_crops ../shared/data/real-train \\
        --labels model/evaluate/splits/real-train-training.csv --group phone \\
        --out build/real/crops.npz

Only the training part of a split is ever cut: the held-out part measures.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from model.evaluate.labels import Label, read_labels
from model.evaluate.photos import voc_boxes
from scanner.vision.contract import CLASSES, NOT_AN_INDEX
from scanner.vision.images import read_image
from scanner.vision.preprocess import upright_crops

# a mark this far from every labelled box (in the box's own sizes) lies on no index: a key of a
# keyboard, a pip, the table; nearer, it may be a corner left unlabelled
NONE_BEYOND = 1.5
# a whole card's box grown by this share of its size on every side: a mark beyond lies on no card
CARD_MARGIN = 0.1
# each mark cut as read and so many times again, turned and sized a little otherwise: a real
# photo's marks lie a few degrees and a few per cent off what the locator gives
VARIANTS = 4
TURN_DEG = 8.0
SIZE_SHARE = 0.08


def _boxes(label: Path) -> list[tuple[str, float, float, float, float]]:
    """The labelled index boxes: (class, x0, y0, x1, y1)."""
    return [(Label.from_token(name).code, *box) for name, *box in voc_boxes(label)]


def _card_boxes(label: Path) -> list[tuple[str, float, float, float, float]]:
    """The labelled whole-card boxes, whatever their names: ("card", x0, y0, x1, y1)."""
    return [("card", *box) for _, *box in voc_boxes(label)]


def _inside(x: float, y: float, boxes: Sequence[tuple], grow: float = 0.0) -> str | None:
    """The code of the box that holds (x, y), each box grown by ``grow`` of its size on every
    side; None where none does."""
    for code, x0, y0, x1, y1 in boxes:
        dx, dy = grow * (x1 - x0), grow * (y1 - y0)
        if x0 - dx <= x <= x1 + dx and y0 - dy <= y <= y1 + dy:
            return code
    return None


def cut(
    folder: Path,
    labels: Path,
    groups: Sequence[str],
    seed: int,
    recogniser=None,
    whole_cards: bool = False,
) -> dict:
    """Crops (uint8 [N, H, W, 3]) and their classes (int [N]) from the photos ``labels``
    names under ``folder`` in ``groups`` (all where empty). With ``whole_cards``, the boxes
    hold whole cards (as ``../shared/data/real-photos``, named by rank alone): only the marks
    outside every card (its box grown CARD_MARGIN) are cut, as "not an index": printed words,
    pictures and cloth beside the cards, the phantoms of a busy table."""
    from scanner.vision import Recogniser

    recogniser = recogniser or Recogniser.load()
    contract = recogniser.contract
    rng = np.random.default_rng(seed)
    photos, _ = read_labels(labels, folder)
    crops, classes = [], []
    for photo in photos:
        if groups and photo.group not in groups:
            continue
        frame = read_image(photo.image)
        label = photo.image.with_suffix(".xml")
        boxes = _card_boxes(label) if whole_cards else _boxes(label)
        marks, codes = [], []
        for index in recogniser.read(frame, melds=False).indices:
            x, y = index.index.x, index.index.y
            code = _inside(x, y, boxes)
            far = CARD_MARGIN if whole_cards else NONE_BEYOND
            if whole_cards and code is not None:
                continue  # a mark on a card: its index, its rank's colour unknown
            if code is None and boxes and _inside(x, y, boxes, far) is None:
                code = NOT_AN_INDEX
            if code is None or code not in CLASSES:
                continue
            mark = index.index
            marks.append(mark)
            for _ in range(VARIANTS):
                grow = 1 + SIZE_SHARE * rng.uniform(-1, 1)
                marks.append(
                    replace(
                        mark,
                        angle=(mark.angle + TURN_DEG * rng.uniform(-1, 1)) % 360.0,
                        index_h=mark.index_h * grow,
                        index_w=mark.index_w * grow,
                    )
                )
            codes += [code] * (VARIANTS + 1)
        if marks:
            crops.append(upright_crops(frame, marks, contract))
            classes += [CLASSES.index(code) for code in codes]
    if not crops:
        raise ValueError(f"{labels}: no labelled index was marked in {folder}")
    return {"crops": np.concatenate(crops), "classes": np.array(classes, np.int64)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m model.recogniser.real_crops", description=__doc__
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--labels", type=Path, required=True)
    parser.add_argument("--group", action="append", default=[], help="only this group (repeat)")
    parser.add_argument(
        "--whole-cards",
        action="store_true",
        help="the boxes hold whole cards, named by rank: cut only marks beside every card, as "
        "not an index",
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=71)
    args = parser.parse_args(argv)
    data = cut(args.folder, args.labels, args.group, args.seed, whole_cards=args.whole_cards)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **data)
    counts = np.bincount(data["classes"], minlength=len(CLASSES))
    print(f"{len(data['classes'])} crops of {int((counts > 0).sum())} classes → {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

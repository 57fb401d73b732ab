"""Locator samples cut from real photos whose corner indices are labelled (Pascal VOC boxes
named by card code, as ``../shared/data/real-train``): what teaches the locator real print.

A box gives where an index lies but not its reading angle nor its size along the index. Each
labelled box gets them, in turn, from:

1. the recogniser's own mark inside the box (its angle, size and the card it predicts round it);
2. else a search: the box's index cut at every ``SEARCH_TURN`` degrees and a few sizes the
   box allows, the classifier told which card it is; the place where it reads that card at
   least ``SEARCH_SURE`` sure (its card left unknown: those heads are not taught there);
3. else nothing: the box is left untaught either way (neither right nor wrong to mark).

Each photo is then cut at several scales, so its indices fall where the locator learnt to read
(index heights log-uniform in ``HEIGHTS``), into square crops as ``dataset.cut_locator_samples``
cuts rendered scenes: the same arrays, so the two mix in one file.

    python -m model.recogniser.real_marks ../shared/data/real-train \\
        --labels model/evaluate/splits/real-train-training.csv --out build/real/locator.npz

Only the training part of a split is ever cut: the held-out part measures.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from model.evaluate.labels import read_labels
from model.evaluate.photos import RANKS, voc_boxes
from model.recogniser.dataset import TRUTH_FIELDS
from model.recogniser.real_crops import _boxes
from scanner.vision.contract import CLASSES
from scanner.vision.images import read_image
from scanner.vision.networks import softmax
from scanner.vision.preprocess import index_crops

SEARCH_TURN = 10.0  # degrees between the turns the search reads a box's index at
SEARCH_SIZES = (0.7, 0.85, 1.0)  # the index height, in the box's own fit (``_fit_height``)
SEARCH_SURE = 0.3  # the classifier's least probability of the labelled card to take a place
# a mark's height over the box's fit (``_fit_height``): 0.65–1.15 for nine in ten marks read as
# the labelled card on the training photos; far outside, the mark is not that index
MARK_FITS = (0.45, 1.4)
INDEX_ASPECT = 0.6  # index width over height, where a search needs one (rendered decks: 0.5–0.7)
HEIGHTS = (10.0, 56.0)  # index heights the photos are scaled to: the rendered scenes' 5–95 %
SCALES_PER_PHOTO = 3
CROPS_PER_SCALE = 3
SIZE = 192  # the locator's crop, as cut_locator_samples


@dataclass(frozen=True)
class Place:
    """A labelled index's geometry in frame px; card fields NaN where unknown."""

    x: float
    y: float
    angle: float
    index_h: float
    index_w: float
    card_x: float = np.nan
    card_y: float = np.nan
    card_w: float = np.nan
    card_h: float = np.nan
    code: str = "none"
    taught: bool = True  # False: found by neither way, left untaught

    def row(self, shift: np.ndarray, scale: float) -> list[float]:
        s = scale
        return [
            (self.x * s) - shift[0],
            (self.y * s) - shift[1],
            self.angle,
            self.index_h * s,
            self.index_w * s,
            self.card_x * s - shift[0],
            self.card_y * s - shift[1],
            self.card_w * s,
            self.card_h * s,
            CLASSES.index(self.code),
            1.0 if self.taught else 0.5,
        ]


def _fit_height(width: float, height: float, angle: float, aspect: float) -> float:
    """The height of an index ``aspect`` times as wide as tall, turned ``angle``, whose
    axis-aligned bounding box is ``width`` × ``height``: the larger fit of the two sides."""
    c, s = abs(np.cos(np.radians(angle))), abs(np.sin(np.radians(angle)))
    return min(width / (aspect * c + s), height / (aspect * s + c))


def _inside(mark, box) -> bool:
    _, x0, y0, x1, y1 = box
    return x0 <= mark.x <= x1 and y0 <= mark.y <= y1


def _fits(mark, box) -> bool:
    """Whether ``mark`` is about as large as the index ``box`` holds (MARK_FITS of the height
    the box allows at the mark's angle): a smaller mark inside is a suit sign or a letter."""
    _, x0, y0, x1, y1 = box
    aspect = mark.index_w / max(mark.index_h, 1e-6)
    share = mark.index_h / _fit_height(x1 - x0, y1 - y0, mark.angle, aspect)
    return MARK_FITS[0] <= share <= MARK_FITS[1]


def place_boxes(frame: np.ndarray, boxes: Sequence[tuple], recogniser) -> list[Place]:
    """Every labelled box's geometry, in the three ways the module's doc says."""
    reading = recogniser.read(frame, melds=False)
    marks = [(r.index, r.code) for r in reading.indices]
    places = []
    for box in boxes:
        code = box[0]
        inside = [(m, c) for m, c in marks if _inside(m, box) and _fits(m, box)]
        inside.sort(key=lambda mc: mc[1] != code)  # a mark read as the labelled card first
        if inside:
            m = inside[0][0]
            places.append(
                Place(
                    m.x,
                    m.y,
                    m.angle,
                    m.index_h,
                    m.index_w,
                    m.card_x,
                    m.card_y,
                    m.card_w,
                    m.card_h,
                    code,
                )
            )
            continue
        places.append(_search(frame, box, recogniser))
    return places


def place_cards(frame: np.ndarray, boxes: Sequence[tuple], recogniser) -> list[Place]:
    """Places from whole-card boxes named by rank alone (as ``../shared/data/real-photos``):
    each mark inside a card read as its rank, taught; each card's whole box left untaught (a
    place as large as the card, not taught either way), since where its indices lie is
    unknown. All else in the photo is taught as no index: the words, pictures and cloth round
    the cards."""
    reading = recogniser.read(frame, melds=False)
    places = []
    for rank, x0, y0, x1, y1 in boxes:
        for index in reading.indices:
            m, code = index.index, index.code
            if x0 <= m.x <= x1 and y0 <= m.y <= y1 and code[:-1] == rank and code[-1] in "RB":
                places.append(
                    Place(
                        m.x,
                        m.y,
                        m.angle,
                        m.index_h,
                        m.index_w,
                        m.card_x,
                        m.card_y,
                        m.card_w,
                        m.card_h,
                        code,
                    )
                )
        side = float(np.hypot(x1 - x0, y1 - y0))
        places.append(Place((x0 + x1) / 2, (y0 + y1) / 2, 0.0, side, side, taught=False))
    return places


def _search(frame: np.ndarray, box: tuple, recogniser) -> Place:
    code, x0, y0, x1, y1 = box
    x, y = (x0 + x1) / 2, (y0 + y1) / 2
    candidates = []
    for angle in np.arange(0.0, 360.0, SEARCH_TURN):
        fit = _fit_height(x1 - x0, y1 - y0, float(angle), INDEX_ASPECT)
        for share in SEARCH_SIZES:
            h = fit * share
            candidates.append(Place(x, y, float(angle), h, h * INDEX_ASPECT, code=code))
    contract, nets = recogniser.contract, recogniser.networks
    # light print on a dark card reads as its negative (the pipeline's ``negative`` look)
    for image in (frame, 255 - frame):
        sure = softmax(nets.classify(index_crops(image, candidates, contract)))
        sure = sure[:, CLASSES.index(code)]
        best = int(np.argmax(sure))
        if sure[best] >= SEARCH_SURE:
            return candidates[best]
    h = min(x1 - x0, y1 - y0)
    return Place(x, y, 0.0, h, h * INDEX_ASPECT, code=code, taught=False)


def cut_photo(
    frame: np.ndarray, places: Sequence[Place], rng: np.random.Generator
) -> tuple[list[np.ndarray], list[list[float]], list[int]]:
    """Crops of ``frame`` at SCALES_PER_PHOTO scales that bring its indices' median height
    into HEIGHTS (or between them and the photo's own size), each with the places it holds."""
    images, rows, counts = [], [], []
    heights = [p.index_h for p in places if p.taught] or [p.index_h for p in places]
    if not heights:
        return images, rows, counts
    median = float(np.median(heights))
    h, w = frame.shape[:2]
    # never smaller than a crop: a photo is read smaller only down to a few hundred pixels; and
    # up to its own size, where its indices are larger than HEIGHTS: the locator should find
    # them in one pass at the size the photo comes
    least = np.log(max(HEIGHTS[0], median * SIZE / min(h, w)))
    most = max(least, np.log(max(HEIGHTS[1], median)))
    for _ in range(SCALES_PER_PHOTO):
        scale = float(np.exp(rng.uniform(least, most))) / median
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        scaled = cv2.resize(
            frame, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        )
        sh, sw = scaled.shape[:2]
        if min(sh, sw) < SIZE:
            pad = ((0, max(0, SIZE - sh)), (0, max(0, SIZE - sw)), (0, 0))
            scaled = np.pad(scaled, pad, mode="edge")
            sh, sw = scaled.shape[:2]
        for _ in range(CROPS_PER_SCALE):
            taught = [p for p in places if p.taught]
            if taught and rng.random() < 0.85:
                p = taught[rng.integers(len(taught))]
                anchor = np.array([p.x, p.y]) * scale + rng.uniform(-SIZE / 3, SIZE / 3, 2)
            else:
                anchor = rng.uniform([0, 0], [sw, sh])
            x0 = int(np.clip(anchor[0] - SIZE / 2, 0, sw - SIZE))
            y0 = int(np.clip(anchor[1] - SIZE / 2, 0, sh - SIZE))
            shift = np.array([x0, y0], np.float64)
            near = [
                p.row(shift, scale)
                for p in places
                if -SIZE * 0.25 < p.x * scale - x0 < SIZE * 1.25
                and -SIZE * 0.25 < p.y * scale - y0 < SIZE * 1.25
            ]
            images.append(scaled[y0 : y0 + SIZE, x0 : x0 + SIZE])
            rows.extend(near)
            counts.append(len(near))
    return images, rows, counts


def _how_placed(place: Place) -> str:
    if not place.taught:
        return "untaught"
    return "marked" if np.isfinite(place.card_x) else "searched"


def cut(
    folder: Path, labels: Path, seed: int, recogniser=None, whole_cards: bool = False
) -> tuple[dict, dict]:
    """The locator samples (``images``, ``truths``, ``counts``) of the photos ``labels`` names
    under ``folder``, and how each box was placed (``whole_cards``: boxes of whole cards named
    by rank, see ``place_cards``)."""
    from scanner.vision import Recogniser

    recogniser = recogniser or Recogniser.load()
    rng = np.random.default_rng(seed)
    photos, _ = read_labels(labels, folder)
    images, rows, counts = [], [], []
    tally = {"marked": 0, "searched": 0, "untaught": 0}
    for photo in photos:
        frame = read_image(photo.image)
        label = photo.image.with_suffix(".xml")
        if whole_cards:
            cards = [(RANKS.get(name.lower(), "?"), *box) for name, *box in voc_boxes(label)]
            places = place_cards(frame, cards, recogniser)
            if not any(p.taught for p in places):
                continue  # no index to size the photo by
        else:
            boxes = [b for b in _boxes(label) if b[0] in CLASSES]
            places = place_boxes(frame, boxes, recogniser)
        for p in places:
            tally[_how_placed(p)] += 1
        i, r, c = cut_photo(frame, places, rng)
        images += i
        rows += r
        counts += c
    arrays = {
        "images": np.stack(images),
        "truths": np.array(rows, np.float32).reshape(-1, TRUTH_FIELDS),
        "counts": np.array(counts, np.int32),
        "real": np.ones(len(counts), bool),
    }
    return arrays, tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m model.recogniser.real_marks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--labels", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=71)
    parser.add_argument(
        "--whole-cards",
        action="store_true",
        help="the boxes hold whole cards named by rank (nine … ace): marks read as the card's "
        "rank taught, the cards otherwise untaught, all beside them taught as no index",
    )
    args = parser.parse_args(argv)
    arrays, tally = cut(args.folder, args.labels, args.seed, whole_cards=args.whole_cards)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, **arrays)
    placed = ", ".join(f"{count} {kind}" for kind, count in tally.items())
    print(f"{len(arrays['counts'])} crops, boxes: {placed} → {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

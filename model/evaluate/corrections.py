"""Learning from corrections, replayed on labelled real photos: what a table that corrects every
misread card gains in its later scans of the same deck (model/experiments/deck-profiles.md).

``python -m model.evaluate.corrections SRC --labels SPLIT.csv`` reads the split's photos in
order (each group in turn: one deck each), each with a deck taught nothing but the corrections
of the photos before it, and as the recogniser reads alone. A card read on a labelled corner as
another code is corrected as a player would: its crops join the deck
(``scanner/decks/corrections.py``). Prints, with and without the corrections, the share of the
labelled corners read with their rank and colour, the readings on no labelled corner, and how
many corrections were made. The photos' VOC files give the corners.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections.abc import Sequence
from pathlib import Path

from scanner.decks.corrections import corrected_examples
from scanner.decks.profiles import crop_of
from scanner.decks.voc import card_of, voc_boxes
from scanner.vision.cards import CardReading
from scanner.vision.images import read_image
from scanner.vision.profile import Taught
from scanner.vision.recogniser import Recogniser

Box = tuple[str, float, float, float, float]  # the card's code (R/B form), x0, y0, x1, y1


def labelled(label: Path) -> list[Box]:
    """The corners of a VOC file, each with its code as the classifier names it."""
    boxes = []
    for name, *box in voc_boxes(label):
        rank, colour = card_of(name)
        boxes.append((rank + (colour or ""), *box))
    return boxes


def compared(boxes: Sequence[Box], cards: Sequence[CardReading]) -> tuple[int, int, list]:
    """Of ``cards`` read on ``boxes``: how many read right, how many lie on no box, and the
    misread ones as (the centre of the index read, the box's code)."""
    right, stray, wrong = 0, 0, []
    for card in cards:
        x = (card.index_box[0] + card.index_box[2]) / 2
        y = (card.index_box[1] + card.index_box[3]) / 2
        box = next((b for b in boxes if b[1] <= x <= b[3] and b[2] <= y <= b[4]), None)
        if box is None:
            stray += 1
        elif card.code == box[0]:
            right += 1
        else:
            wrong.append(((x, y), box[0]))
    return right, stray, wrong


def replay(recogniser: Recogniser, photos: Sequence[tuple[Path, Path]]) -> dict:
    """The photos of one deck read in turn, with and without the corrections made so far."""
    taught: list[Taught] = []
    size = (recogniser.contract.crop_h, recogniser.contract.crop_w)
    figures = {"corners": 0, "right_alone": 0, "right_with": 0, "stray_alone": 0}
    figures |= {"stray_with": 0, "corrections": 0}
    reader = recogniser
    for n, (image, label) in enumerate(photos):
        frame, boxes = read_image(image), labelled(label)
        figures["corners"] += len(boxes)
        alone = compared(boxes, recogniser.read(frame).cards)
        with_them = compared(boxes, reader.read(frame).cards) if taught else alone
        figures["right_alone"] += alone[0]
        figures["stray_alone"] += alone[1]
        figures["right_with"] += with_them[0]
        figures["stray_with"] += with_them[1]
        # the players correct what this table read wrong; the next photos read with it
        examples = corrected_examples(recogniser, frame, with_them[2], n)
        for example in examples:
            taught.append(Taught(example.code, crop_of(example.crop, size), corrected=True))
        figures["corrections"] += len(with_them[2])
        if examples:
            reader = recogniser.with_profile(recogniser.learn("corrections", taught))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m model.evaluate.corrections", description=__doc__
    )
    parser.add_argument("source", type=Path, help="the folder the split's image paths start in")
    parser.add_argument("--labels", type=Path, required=True, help="the split (image,cards,group)")
    args = parser.parse_args(argv)
    recogniser = Recogniser.load()
    groups: dict[str, list[tuple[Path, Path]]] = {}
    with args.labels.open(newline="") as rows:
        for row in csv.DictReader(rows):
            image = args.source / row["image"]
            groups.setdefault(row.get("group") or "all", []).append(
                (image, image.with_suffix(".xml"))
            )
    result = {group: replay(recogniser, photos) for group, photos in groups.items()}
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

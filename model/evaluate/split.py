"""The shared real photo sets split once into a training part and a held-out part, as labels
files ``handfoot eval DIR --labels FILE.csv`` reads (``model/evaluate/splits/``).

Photos taken seconds apart show one scene, so a set is split by scene, never by photo: a scene
is a run of photos whose times (``IMG_20220921_193915``) or numbers (``IMG_7702``) follow one
another within SESSION_GAP_S seconds or SESSION_GAP_NUMBERS numbers and that share a card with
the photo before. Scenes go to the held-out part in an order drawn from a fixed seed until it
holds HELD_OUT of each group's photos.
Never tune on the held-out parts: their figures are what a new table would see.

    python -m model.evaluate.split ../shared/data/real-train ../shared/data/real-photos \\
        --out model/evaluate/splits
"""

from __future__ import annotations

import argparse
import csv
import random
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from model.evaluate.photos import RANKS, photo_files, voc_boxes

SEED = 20261207
HELD_OUT = 0.3  # of each group's photos
SESSION_GAP_S = 60  # s between two photos of one session (a phone's timestamps)
SESSION_GAP_NUMBERS = 3  # file numbers between two photos of one session (a camera's counter)
_TIME = re.compile(r"(\d{8})_(\d{6})")
_NUMBER = re.compile(r"(\d+)")


def _position(name: str) -> tuple[str, float, float]:
    """A photo's clock and its place on it: (kind, value, gap that starts a new session)."""
    stamp = _TIME.search(name)
    if stamp:
        when = datetime.strptime(stamp.group(1) + stamp.group(2), "%Y%m%d%H%M%S")
        return "time", when.timestamp(), SESSION_GAP_S
    number = _NUMBER.findall(name)
    return "number", float(number[-1]) if number else 0.0, SESSION_GAP_NUMBERS


def sessions(photos: dict[str, str]) -> list[list[str]]:
    """The photos (name → the cards it shows) in scenes: runs taken one after another, each
    sharing a card with the one before.

    >>> sessions({"IMG_7702.jpg": "7H", "IMG_7703.jpg": "7H 2C", "IMG_7704.jpg": "KS",
    ...           "IMG_7750.jpg": "KS"})
    [['IMG_7702.jpg', 'IMG_7703.jpg'], ['IMG_7704.jpg'], ['IMG_7750.jpg']]
    """
    placed = sorted((_position(name), name) for name in photos)
    runs: list[list[str]] = []
    last = None
    for (kind, value, gap), name in placed:
        cards = set(photos[name].split())
        if last is None or last[0] != kind or value - last[1] > gap or not cards & last[2]:
            runs.append([])
        runs[-1].append(name)
        last = (kind, value, cards)
    return runs


def split(groups: dict[str, dict[str, str]], seed: int = SEED, share: float = HELD_OUT) -> set[str]:
    """The held-out photos: whole scenes of each group (name → cards), drawn in a seeded
    order, until they hold ``share`` of its photos."""
    rng = random.Random(seed)
    held: set[str] = set()
    for group in sorted(groups):
        runs = sessions(groups[group])
        rng.shuffle(runs)
        wanted, taken = share * len(groups[group]), 0
        for run in runs:
            if taken >= wanted:
                break
            held.update(run)
            taken += len(run)
    return held


def _real_train(folder: Path) -> list[dict[str, str]]:
    """``labels.csv`` of a set labelled per image (image, cards, group)."""
    with (folder / "labels.csv").open(encoding="utf-8-sig") as lines:
        return [
            {"image": f"photos/{row['image']}", "cards": row["cards"], "group": row["group"]}
            for row in csv.DictReader(lines)
        ]


def _voc_ranks(folder: Path) -> list[dict[str, str]]:
    """Photos with Pascal VOC whole-card boxes named by rank (``nine`` … ``ace``), grouped by
    the folder they lie in."""
    rows = []
    for image, label in photo_files(folder):
        names = [name.lower() for name, *_ in voc_boxes(label)]
        cards = " ".join(RANKS.get(name, name.upper()) for name in names)
        rows.append(
            {"image": str(image.relative_to(folder)), "cards": cards, "group": label.parent.name}
        )
    return rows


def write_split(folder: Path, out: Path, seed: int = SEED) -> dict[str, int]:
    """``out``/<set>-training.csv and <set>-held-out.csv for the set in ``folder``; how many
    photos each holds."""
    rows = _real_train(folder) if (folder / "labels.csv").is_file() else _voc_ranks(folder)
    groups: dict[str, dict[str, str]] = {}
    for row in rows:
        groups.setdefault(row["group"], {})[row["image"]] = row["cards"]
    held = split(groups, seed)
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for part, keep in (("training", False), ("held-out", True)):
        chosen = [row for row in rows if (row["image"] in held) == keep]
        path = out / f"{folder.name}-{part}.csv"
        with path.open("w", encoding="utf-8", newline="") as file:
            writer = csv.DictWriter(file, ("image", "cards", "group"), lineterminator="\n")
            writer.writeheader()
            writer.writerows(chosen)
        counts[part] = len(chosen)
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m model.evaluate.split", description=__doc__)
    parser.add_argument("folders", nargs="+", type=Path, metavar="SET")
    parser.add_argument("--out", type=Path, default=Path("model/evaluate/splits"))
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    for folder in args.folders:
        counts = write_split(folder, args.out, args.seed)
        print(f"{folder.name}: {counts['training']} training, {counts['held-out']} held out")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

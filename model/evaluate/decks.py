"""What a taught deck is worth on designs the networks never saw: for each of a few held-out
designs, one rendered photo of the deck laid out teaches a profile (``scanner/decks``), then
busy rendered scenes of that design alone are read without and with it.

    python -m model.evaluate.decks --deck special --designs 12 --scenes 10 --seed 5150

prints, for both readings, recall, precision, codes right (of the cards found) and the
share of cards read with the right code, over all the designs and per design.

    python -m model.evaluate.decks --photos ../shared/data/real-train \
        --labels model/evaluate/splits/real-train-held-out.csv --teach 30

does the same on real photos labelled with boxes (Pascal VOC beside each photo) and listed in
a labels file (``handfoot eval --labels``): each group of the file is one deck; its first
photos by name that show a card not yet taught (at most ``--teach``) teach it from their boxes,
and the rest are read without and with it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from model.evaluate.scenes import score_scene, summarise
from model.synth.faces import ALL_STYLES, TRAINING_ONLY_STYLES
from model.synth.faces.typeset import styles_for
from model.synth.scene import render_scene
from scanner.decks.teach import from_boxes, from_layout, voc_photos
from scanner.vision.images import read_image
from scanner.vision.recogniser import Recogniser


def held_out_designs(deck: str, count: int, split: str = "test") -> list[str]:
    """``count`` held-out designs of ``deck``, spread evenly over the named ones and those
    typeset in held-out typefaces, by name (fixed, so runs compare); ``split="train"``: of
    the designs the networks learnt instead (to choose a profile's settings on, never the
    held-out ones)."""
    named = sorted(
        s.name
        for s in ALL_STYLES
        if s.split == split and s.deck == deck and s not in TRAINING_ONLY_STYLES
    )
    typeset = sorted(s.name for s in styles_for(split, deck))
    every = named + typeset
    if count >= len(every):
        return every
    step = len(every) / count
    return [every[int(n * step)] for n in range(count)]


def _frame(scene) -> np.ndarray:
    if scene.jpeg is None:
        return scene.rgb
    bgr = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def measure(
    recogniser: Recogniser,
    deck: str,
    designs: Sequence[str],
    scenes: int,
    seed: int,
    split: str = "test",
) -> dict:
    """The figures without and with each design's profile, over all and per design, with
    what each lesson found and how long it took."""
    plain, taught, per_design = [], [], {}
    for n, design in enumerate(designs):
        lesson_scene = render_scene(
            seed, n, split=split, deck=deck, layout="teach", styles=(design,)
        )
        started = time.perf_counter()
        lesson = from_layout(recogniser, [_frame(lesson_scene)], deck)
        profile = recogniser.learn(design, lesson.taught)
        seconds = time.perf_counter() - started
        reader = recogniser.with_profile(profile)
        mine_plain, mine_taught = [], []
        for k in range(scenes):
            scene = render_scene(seed + 1, n * 1000 + k, split=split, deck=deck, styles=(design,))
            frame = _frame(scene)
            mine_plain.append(score_scene(scene.labels, recogniser.read(frame).cards))
            mine_taught.append(score_scene(scene.labels, reader.read(frame).cards))
        plain += mine_plain
        taught += mine_taught
        per_design[design] = {
            "lesson": {**lesson.as_json(), "seconds": round(seconds, 2)},
            "without": _figures(mine_plain),
            "with": _figures(mine_taught),
        }
        print(f"{design}: {_line(per_design[design])}", file=sys.stderr, flush=True)
    return {
        "deck": deck,
        "designs": list(designs),
        "scenes_per_design": scenes,
        "seed": seed,
        "without": _figures(plain),
        "with": _figures(taught),
        "per_design": per_design,
    }


def measure_photos(recogniser: Recogniser, folder, labels, teach: int) -> dict:
    """Real photos: per group (one deck), a profile taught from the boxes of its first photos
    that show a card not yet taught (at most ``teach``), the rest read without and with it."""
    from model.evaluate.labels import evaluate_labelled, read_labels

    photos, _ = read_labels(labels, folder)
    boxes = {image.resolve(): found for image, found in voc_photos(folder)}
    figures: dict = {"teach_at_most": teach, "groups": {}}
    for group in sorted({p.group for p in photos}, key=str):
        mine = sorted((p for p in photos if p.group == group), key=lambda p: p.image.name)
        teachers, seen = [], set()
        for photo in mine:
            codes = {label.code for label in photo.cards}
            if len(teachers) < teach and not codes <= seen:
                teachers.append(photo)
                seen |= codes
        rest = [p for p in mine if p not in teachers]
        started = time.perf_counter()
        lesson = from_boxes(
            recogniser, ((read_image(p.image), boxes[p.image.resolve()]) for p in teachers)
        )
        profile = recogniser.learn(str(group), lesson.taught)
        seconds = time.perf_counter() - started
        reader = recogniser.with_profile(profile)
        without, _ = evaluate_labelled(rest, _codes(recogniser))
        with_it, _ = evaluate_labelled(rest, _codes(reader))
        keep = ("photos", "cards", "rank_recall", "recall", "precision", "colour_errors")
        figures["groups"][str(group)] = {
            "lesson": {**lesson.as_json(), "seconds": round(seconds, 2)},
            "without": {k: without[k] for k in keep},
            "with": {k: with_it[k] for k in keep},
        }
        print(f"{group}: {figures['groups'][str(group)]}", file=sys.stderr, flush=True)
    return figures


def _codes(reader: Recogniser):
    return lambda frame: [card.code for card in reader.read(frame).cards]


def _figures(scores) -> dict:
    s = summarise(scores)
    return {
        "countable": s["countable"],
        "recall": s["recall"],
        "precision": s["precision"],
        "codes_right": s["accuracy"]["all"],
        "read_right": s["read_right"] / s["countable"] if s["countable"] else None,
    }


def _percent(value) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _line(figures: dict) -> str:
    parts = []
    for name in ("without", "with"):
        f = figures[name]
        parts.append(
            f"{name}: recall {_percent(f['recall'])}, precision {_percent(f['precision'])}, "
            f"codes right {_percent(f['codes_right'])}, read right {_percent(f['read_right'])}"
        )
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m model.evaluate.decks", description=__doc__)
    parser.add_argument("--deck", choices=("standard", "special"), default="special")
    parser.add_argument("--designs", type=int, default=12, help="held-out designs measured")
    parser.add_argument("--scenes", type=int, default=10, help="busy scenes per design")
    parser.add_argument("--seed", type=int, default=5150)
    parser.add_argument(
        "--split",
        choices=("test", "train"),
        default="test",
        help="test: held-out designs (the figures); train: designs the networks learnt, to "
        "choose a profile's settings on",
    )
    parser.add_argument("--models", help="folder with the .onnx files (default: the shipped)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--photos", type=Path, help="real photos with VOC boxes, not renders")
    parser.add_argument("--labels", type=Path, help="with --photos: the labels file (eval's)")
    parser.add_argument("--teach", type=int, default=30, help="with --photos: teaching photos")
    args = parser.parse_args(argv)
    if args.photos is not None:
        if args.labels is None:
            parser.error("--photos needs --labels")
        figures = measure_photos(Recogniser.load(args.models), args.photos, args.labels, args.teach)
        print(json.dumps(figures, indent=1))
        return 0
    if args.designs < 1 or args.scenes < 1:
        parser.error("--designs and --scenes are counts of 1 or more")
    recogniser = Recogniser.load(args.models)
    designs = held_out_designs(args.deck, args.designs, args.split)
    figures = measure(recogniser, args.deck, designs, args.scenes, args.seed, args.split)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(f"{len(designs)} held-out {args.deck} designs, {args.scenes} scenes each")
        print(_line(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())

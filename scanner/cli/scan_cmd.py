"""``handfoot scan`` (read the cards in photos) and ``handfoot eval`` (score the recogniser on
a folder of labelled synthetic scenes).

``scan`` prints one line per image; with ``--json`` each line is a JSON object::

    {"image": "table.jpg", "cards": [{"code": "KR", "confidence": 0.998,
     "index_box": [x0, y0, x1, y1], "polygon": [[x, y], [x, y], [x, y], [x, y]],
     "angle": 12.5, "check": false}], "timing_ms": {"locate": …, "classify": …, "decode": …,
     "total": …}}

An image that cannot be read gets one line on stderr and the others are still scanned. Exit
code 0 when every image was read, 2 when any could not be (or the models cannot be loaded).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scanner.cli.common import EXIT_OK, EXIT_UNUSABLE, CommandError, print_json


def register(subcommands: argparse._SubParsersAction) -> None:
    scan = subcommands.add_parser(
        "scan",
        help="read the cards in photos of the table",
        description="Read the cards in each IMAGE with the recogniser's models (loaded once). "
        "One line per image; exit code 2 if any image could not be read.",
    )
    scan.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    scan.add_argument("--json", action="store_true", help="one JSON object per image")
    scan.add_argument("--annotate", type=Path, metavar="DIR", help="write <stem>.annotated.jpg")
    add_model_arguments(scan)
    scan.set_defaults(run=run_scan)

    evaluate = subcommands.add_parser(
        "eval",
        help="score the recogniser on scenes written by `handfoot synth`",
        description="Read every scene_*.jpg in DIR and set the cards read against the labels: "
        "card recall and precision, classification accuracy, scenes read exactly, split by seen "
        "and held-out card designs, and a confusion matrix image.",
    )
    evaluate.add_argument("folder", type=Path, metavar="DIR")
    evaluate.add_argument("--json", action="store_true", help="print the figures as JSON")
    evaluate.add_argument(
        "--confusion", type=Path, metavar="FILE.png", help="default DIR/confusion.png"
    )
    evaluate.add_argument("--limit", type=int, metavar="N", help="only the first N scenes")
    add_model_arguments(evaluate)
    evaluate.set_defaults(run=run_eval)


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--models", type=Path, metavar="DIR", help="folder with locator.onnx and classifier.onnx"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads per model (default 1)",
    )


def load_recogniser(args: argparse.Namespace):
    from scanner.vision import Recogniser, RecogniserError

    if args.threads < 1:
        raise CommandError("--threads must be at least 1")
    try:
        return Recogniser.load(args.models, threads=args.threads)
    except RecogniserError as error:
        raise CommandError(str(error)) from None


def run_scan(args: argparse.Namespace) -> int:
    from scanner.vision import ImageError
    from scanner.vision.annotate import annotate
    from scanner.vision.images import read_image, write_image

    if args.annotate is not None:
        if args.annotate.exists() and not args.annotate.is_dir():
            raise CommandError(f"{args.annotate}: exists and is not a folder")
        args.annotate.mkdir(parents=True, exist_ok=True)
    recogniser = load_recogniser(args)
    failed = 0
    for path in args.images:
        try:
            frame = read_image(path)
        except ImageError as error:
            print(f"handfoot: {error}", file=sys.stderr)
            failed += 1
            continue
        reading = recogniser.read(frame)
        if args.json:
            print_json({"image": str(path), **reading.as_json()})
        else:
            print_reading(path, reading)
        if args.annotate is not None:
            target = args.annotate / f"{path.stem}.annotated.jpg"
            try:
                write_image(target, annotate(frame, reading.cards))
            except ImageError as error:
                raise CommandError(str(error)) from None
        sys.stdout.flush()
    return EXIT_UNUSABLE if failed else EXIT_OK


def print_reading(path: Path, reading) -> None:
    total = reading.timing_ms["total"]
    count = len(reading.cards)
    print(f"{path}: {count} card{'' if count == 1 else 's'} ({total:.0f} ms)")
    for card in reading.cards:
        x0, y0, x1, y1 = card.index_box
        note = "  check" if card.check else ""
        print(
            f"  {card.code:<8} {card.confidence:6.1%}  index at ({(x0 + x1) / 2:.0f}, "
            f"{(y0 + y1) / 2:.0f}), turned {card.angle:.0f}°{note}"
        )


def run_eval(args: argparse.Namespace) -> int:
    from scanner.vision import ImageError
    from scanner.vision.evaluate import draw_confusion, evaluate_folder, report, scene_files
    from scanner.vision.images import write_image

    if not args.folder.is_dir():
        raise CommandError(f"{args.folder}: no such folder")
    if args.limit is not None and args.limit < 1:
        raise CommandError("--limit must be at least 1")
    if not scene_files(args.folder, 1):
        return run_photo_eval(args)
    confusion = args.confusion or args.folder / "confusion.png"
    if confusion.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        raise CommandError(f"{confusion}: the confusion matrix must be a .png or .jpg file")
    recogniser = load_recogniser(args)
    try:
        scores = evaluate_folder(
            args.folder, lambda frame: recogniser.read(frame).cards, args.limit
        )
        write_image(confusion, draw_confusion(scores))
    except ImageError as error:
        raise CommandError(str(error)) from None
    except (json.JSONDecodeError, KeyError) as error:
        raise CommandError(
            f"{args.folder}: a label file is not a handfoot-scene/1 file ({error})"
        ) from None
    figures = report(scores)
    figures["confusion"] = str(confusion)
    if args.json:
        print_json(figures)
    else:
        print_figures(figures)
    return EXIT_OK


def run_photo_eval(args: argparse.Namespace) -> int:
    """Real photographs with Pascal VOC labels instead of synthetic scenes."""
    from scanner.vision.photos import evaluate_photos, photo_files

    if not photo_files(args.folder):
        raise CommandError(
            f"{args.folder}: no scene_*.json files (write some with handfoot synth) and no "
            "photos with Pascal VOC labels"
        )
    recogniser = load_recogniser(args)
    figures = evaluate_photos(args.folder, lambda frame: recogniser.read(frame).cards)
    if args.json:
        print_json(figures)
    else:
        print(
            f"{figures['photos']} photos, {figures['cards']} labelled cards: found "
            f"{_percent(figures['recall'])}, rank right {_percent(figures['rank_accuracy'])} of "
            f"those, {_percent(figures['precision'])} of {figures['readings']} readings on a card"
        )
    return EXIT_OK


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def print_figures(figures: dict) -> None:
    parts = [
        ("all scenes", figures),
        *(
            (f"{name.replace('_', '-')} designs", part)
            for name, part in figures["by_styles"].items()
        ),
    ]
    for title, part in parts:
        accuracy = part["accuracy"]
        print(
            f"{title}: {_count(part['scenes'], 'scene')}, "
            f"{_count(part['countable'], 'countable card')}\n"
            f"  recall {_percent(part['recall'])}, precision {_percent(part['precision'])} "
            f"({part['double_counts']} double counts, {part['phantoms']} phantoms, "
            f"{part['ignored']} reads of hidden cards ignored)\n"
            f"  codes right {_percent(accuracy['all'])} of found (standard "
            f"{_percent(accuracy['standard'])}, special {_percent(accuracy['special'])}); "
            f"scenes read exactly {_percent(part['exact_scenes'])}"
        )
    weakest = sorted(figures["per_class_recall"].items(), key=lambda item: item[1])[:8]
    if weakest:
        print("weakest classes: " + ", ".join(f"{c} {_percent(r)}" for c, r in weakest))
    print(f"confusion matrix: {figures['confusion']}")

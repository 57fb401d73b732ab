"""``handfoot eval DIR --labels FILE.csv``: the recogniser scored on anyone's photos, labelled by
the cards each shows (``model/evaluate/labels.py``): how a club checks the scanner on its own
deck."""

from __future__ import annotations

import argparse

from scanner.cli.common import CommandError
from scanner.cli.scan_cmd import _percent


def run_label_eval(args: argparse.Namespace) -> int:
    from model.evaluate.labels import LabelsError, evaluate_labelled, read_labels
    from scanner.cli.scan_cmd import ReadingsLog, load_recogniser, print_eval, write_errors

    try:
        photos, missing = read_labels(args.labels, args.folder)
    except LabelsError as error:
        raise CommandError(str(error)) from None
    if args.limit is not None:
        photos = photos[: args.limit]
    if not photos:
        raise CommandError(f"{args.labels}: names no photo found under {args.folder}")
    if args.errors is not None:
        write_errors(args.errors, ())  # a path it cannot write is said before the photos are read
    recogniser = load_recogniser(args)
    with ReadingsLog(args.readings) as readings:

        def codes(frame) -> list[str]:
            cards = readings.kept(recogniser.read(frame, melds=args.melds)).cards
            return [card.code for card in cards]

        figures, errors = evaluate_labelled(photos, codes)
    figures["missing_images"] = missing
    return print_eval(args, figures, errors, print_label_figures)


def _line(figures: dict) -> str:
    return (
        f"{figures['photos']:,} photos, {figures['cards']:,} labelled cards: rank read "
        f"{_percent(figures['rank_recall'])}, rank and colour {_percent(figures['recall'])}; "
        f"precision {_percent(figures['precision'])} of {figures['readings']:,} readings; "
        f"{figures['colour_errors']} colour errors"
    )


def print_label_figures(figures: dict) -> None:
    print(_line(figures))
    for name, part in figures.get("by_group", {}).items():
        print(f"  {name}: {_line(part)}")
    ranks = sorted(figures["per_rank"].items(), key=lambda item: item[1]["recall"] or 0.0)
    if ranks:
        weakest = ", ".join(f"{rank} {_percent(part['recall'])}" for rank, part in ranks[:6])
        print(f"weakest ranks (rank and colour): {weakest}")
    missing = figures["missing_images"]
    if missing:
        shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
        print(f"{len(missing)} labelled images not found, not counted: {shown}")
    if "errors" in figures:
        print(f"every photo with a card missed or misread, a line each: {figures['errors']}")

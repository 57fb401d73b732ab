"""``handfoot scan`` (read the cards on the table and score them) and ``handfoot eval`` (score
the recogniser on a folder of labelled synthetic scenes).

``scan`` reads each IMAGE (or ``--frames K`` consecutive images as the frames of one scan), or
takes ``--frames`` frames from ``--camera``, votes over the frames, groups the cards into melds
and asks the engine what they mean in ``--mode``. With ``--json`` each scan is one line::

    {"image": "table.jpg", "cards": [{"code": "KR", "confidence": 0.998,
     "index_box": [x0, y0, x1, y1], "polygon": [[x, y], [x, y], [x, y], [x, y]],
     "angle": 12.5, "check": false, "seen": 3}],
     "mode": "table", "rules": "pagat", "deal": 1,
     "melds": [{"cards": ["KR", …], "kind": "clean book", "legal": true, "problems": [],
                "points": 570, …}],
     "red_threes": ["3R"], "leftovers": [], "unplaced": [{…card…, "reason": "…"}],
     "strays": [{…card…, "reason": "…"}],
     "totals": {…the engine's lines for the mode…}, "problems": […], "legal": true,
     "check": false, "frames": 3, "frames_read": 3, "quality": null,
     "index_px": 14.2, "small_px": 11.8, "advice": null,
     "timing_ms": {"capture": …, "read": …, "total": …}}

An image that cannot be read gets one line on stderr and the others are still scanned; a
frame too dark or too blurred gives "quality" and its message instead of a reading.
"index_px" is the median size of the cards' corner indices in the frames (px; null where too
few cards were read to measure it), "small_px" the size the smallest fifth of them measure
under; where those measure too small to read well, "advice" (its ``kind``, ``message``, the
size measured as ``value`` and the ``limit`` it missed). Exit code
0 when every scan was read, 2 when any could not be (or the models cannot be loaded).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from scanner.cli.common import EXIT_OK, EXIT_UNUSABLE, CommandError, print_json

MODES = ("meld", "table", "leftovers")


def register(subcommands: argparse._SubParsersAction) -> None:
    scan = subcommands.add_parser(
        "scan",
        help="read and score the cards in photos or from a camera",
        description="Read the cards in each IMAGE (or from --camera) with the recogniser's "
        "models (loaded once), group them into melds and score them in --mode. One line per "
        "scan; exit code 2 if any image could not be read.",
    )
    scan.add_argument("images", nargs="*", type=Path, metavar="IMAGE")
    scan.add_argument("--json", action="store_true", help="one JSON object per scan")
    scan.add_argument("--annotate", type=Path, metavar="DIR", help="write <stem>.annotated.jpg")
    scan.add_argument(
        "--mode",
        choices=MODES,
        default="table",
        help="meld: is this meld legal; table: a side's melds, red threes and points "
        "(default); leftovers: what the cards left in hand cost",
    )
    scan.add_argument("--rules", default="pagat", help="preset or house-rules file (pagat)")
    scan.add_argument("--deal", type=int, default=1, help="the deal being played (default 1)")
    scan.add_argument(
        "--initial", action="store_true", help="meld mode: do these melds open the deal?"
    )
    scan.add_argument(
        "--camera",
        metavar="SOURCE",
        help="take the frames from a camera instead of IMAGEs: picamera2, webcam[:N], "
        "video:PATH, files:PATH or synthetic[:SEED]",
    )
    scan.add_argument(
        "--frames",
        type=int,
        metavar="K",
        help="frames voted over per scan (camera: default 3; images: default 1, K consecutive "
        "images form one scan)",
    )
    add_model_arguments(scan)
    scan.set_defaults(run=run_scan)

    evaluate = subcommands.add_parser(
        "eval",
        help="score the recogniser on scenes written by `handfoot synth`",
        description="Read every scene_*.jpg in DIR and set the cards read against the labels: "
        "card recall and precision, classification accuracy, scenes read exactly, split by seen "
        "and held-out card designs, and a confusion matrix image. With --mode table, score "
        "whole tables instead: the share of scenes whose melds and points come out as the "
        "engine gives them for the true cards. With --labels, score photos of any deck by the "
        "cards each shows.",
    )
    evaluate.add_argument("folder", type=Path, metavar="DIR")
    evaluate.add_argument("--json", action="store_true", help="print the figures as JSON")
    evaluate.add_argument(
        "--confusion", type=Path, metavar="FILE.png", help="default DIR/confusion.png"
    )
    evaluate.add_argument("--limit", type=int, metavar="N", help="only the first N scenes")
    evaluate.add_argument(
        "--mode", choices=("cards", "table"), default="cards", help="what to score (cards)"
    )
    evaluate.add_argument("--rules", default="pagat", help="table mode: preset or rules file")
    evaluate.add_argument(
        "--errors",
        type=Path,
        metavar="FILE.jsonl",
        help="cards mode: write every card missed, read as another code, read twice or read "
        "where no card is, one JSON line each (scene, kind, codes, confidence, check, index "
        "size, where in the frame; for a card missed, its fate: lost in pairing, read as "
        "another code, read as not an index, or no reading)",
    )
    evaluate.add_argument(
        "--no-melds",
        dest="melds",
        action="store_false",
        help="cards mode and photos: read the cards as lying loose, not in melds of one rank "
        "each (by default a meld's unsure cards are read as the rest of it reads)",
    )
    evaluate.add_argument(
        "--labels",
        type=Path,
        metavar="FILE.csv",
        help="score photos of any deck: a CSV with columns image,cards (and optionally group), "
        "cards the corner indices in view, space-separated, with or without the suit letter "
        "(10H KS QR 7 LADY); prints rank recall, rank and colour recall, precision, colour "
        "errors and per-rank figures (--errors lists each photo's misses)",
    )
    evaluate.add_argument(
        "--readings",
        type=Path,
        metavar="FILE.jsonl",
        help="write what was read in every scene or photo, one JSON line each, in the order "
        "read (its cards, deck, scale and index sizes; no timings): two versions of "
        "the recogniser read alike where their files are equal",
    )
    add_model_arguments(evaluate)
    evaluate.set_defaults(run=run_eval)


def add_model_arguments(parser: argparse.ArgumentParser, *, deck: bool = True) -> None:
    """``--models``, ``--threads``, the reading's options, and (``deck``) ``--deck``."""
    parser.add_argument(
        "--models", type=Path, metavar="DIR", help="folder with locator.onnx and classifier.onnx"
    )
    if deck:
        from scanner.cli.deck_cmd import add_deck_argument

        add_deck_argument(parser)
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads per model (default 1)",
    )
    add_turns_argument(parser)


def add_turns_argument(parser: argparse.ArgumentParser) -> None:
    """``--turns`` and ``--without``: the options of a reading (``ReadOptions``)."""
    parser.add_argument(
        "--turns",
        type=int,
        choices=(1, 2, 4),
        default=4,
        help="read the frame turned this many ways and average the locator's marks: 4 finds "
        "the most cards, 1 is about twice as fast (default 4)",
    )
    parser.add_argument(
        "--without",
        metavar="RULES",
        default="",
        help="read with these rules switched off, comma-separated (e.g. closer,wider), to "
        "measure what each is worth; a name that is no rule's is refused with the list of them",
    )


def read_options(args: argparse.Namespace):
    """The ``ReadOptions`` that ``--turns`` and ``--without`` ask for."""
    from scanner.vision import ReadOptions, RecogniserError

    try:
        return ReadOptions.parse_without(args.without, turns=args.turns)
    except RecogniserError as error:
        raise CommandError(str(error)) from None


def load_recogniser(args: argparse.Namespace):
    from scanner.vision import Recogniser, RecogniserError

    if args.threads < 1:
        raise CommandError("--threads must be at least 1")
    options = read_options(args)
    try:
        recogniser = Recogniser.load(args.models, threads=args.threads, options=options)
    except RecogniserError as error:
        raise CommandError(str(error)) from None
    from scanner.cli.deck_cmd import with_deck

    return with_deck(args, recogniser)


def scan_settings(args: argparse.Namespace, frames: int):
    from scanner.rules_files import load_rules
    from scanner.table.modes import Mode
    from scanner.table.scan import ScanSettings

    if args.initial and args.mode != "meld":
        raise CommandError("--initial goes with --mode meld")
    rules = load_rules(args.rules)
    rules.check_deal(args.deal)
    return ScanSettings(
        mode=Mode(args.mode), rules=rules, deal=args.deal, initial=args.initial, frames=frames
    )


def run_scan(args: argparse.Namespace) -> int:
    if args.frames is not None and args.frames < 1:
        raise CommandError("--frames must be at least 1")
    if args.camera is None and not args.images:
        raise CommandError("give one or more IMAGEs, or --camera SOURCE")
    if args.camera is not None and args.images:
        raise CommandError("give IMAGEs or --camera, not both")
    frames = args.frames or (3 if args.camera else 1)
    settings = scan_settings(args, frames)
    if args.annotate is not None:
        if args.annotate.exists() and not args.annotate.is_dir():
            raise CommandError(f"{args.annotate}: exists and is not a folder")
        args.annotate.mkdir(parents=True, exist_ok=True)
    recogniser = load_recogniser(args)
    if args.camera is not None:
        return _scan_camera(args, recogniser, settings)
    failed = 0
    for start in range(0, len(args.images), frames):
        paths = args.images[start : start + frames]
        taken = _frames_from_files(paths)
        failed += len(paths) - len(taken)
        if not taken:
            continue
        scan = _scan_frames(taken, recogniser, settings)
        failed += scan.result is None
        _report(args, str(paths[-1]) if len(paths) == 1 else [str(p) for p in paths], scan)
    return EXIT_UNUSABLE if failed else EXIT_OK


def _frames_from_files(paths: list[Path]) -> list:
    from scanner.table.scan import frame_from_image
    from scanner.vision import ImageError
    from scanner.vision.images import read_image

    frames = []
    for number, path in enumerate(paths):
        try:
            frames.append(frame_from_image(read_image(path), str(path), number))
        except ImageError as error:
            print(f"handfoot: {error}", file=sys.stderr)
    return frames


def _scan_frames(frames, recogniser, settings):
    from scanner.table.scan import read_frames

    return read_frames(frames, recogniser, settings)


def _scan_camera(args: argparse.Namespace, recogniser, settings) -> int:
    from scanner.camera import CameraError, ReliableSource, open_source, parse_spec
    from scanner.table.modes import Mode
    from scanner.table.scan import scan_source

    try:
        options = {}
        if parse_spec(args.camera).kind == "synthetic":
            # rendered tables of the deck the rules play, of what the mode scans
            layout = "leftovers" if settings.mode is Mode.LEFTOVERS else "side"
            options = {"deck": settings.rules.deck.value, "layout": layout}
        source = ReliableSource(open_source(args.camera, **options))
        with source:
            scan = scan_source(source, recogniser, settings)
    except CameraError as error:
        raise CommandError(str(error)) from None
    _report(args, scan.shown.name if scan.shown else args.camera, scan)
    return EXIT_OK if scan.result is not None else EXIT_UNUSABLE


def _report(args: argparse.Namespace, image, scan) -> None:
    if args.json:
        print_json({"image": image, **scan.as_json()})
    else:
        print_scan(image if isinstance(image, str) else ", ".join(image), scan)
    if args.annotate is not None and scan.shown is not None:
        _write_annotated(args.annotate, scan)
    sys.stdout.flush()


def _write_annotated(folder: Path, scan) -> None:
    import re

    from scanner.table.annotate import annotate_table
    from scanner.vision import ImageError
    from scanner.vision.images import write_image

    frame = scan.shown
    stem = Path(frame.name).stem if frame.source.startswith("files:") else frame.name
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-") or "scan"
    image = annotate_table(frame.image, scan.result, scan.vote.readings)
    try:
        write_image(folder / f"{stem}.annotated.jpg", image)
    except ImageError as error:
        raise CommandError(str(error)) from None


def marked(cards) -> str:
    """Codes as the text output shows them: ``?`` after each card to check, wherever it lies
    (a meld, the red threes, the cards left over), as the JSON's ``check`` says."""
    return " ".join(f"{card.code}?" if card.check else card.code for card in cards)


def print_scan(name: str, scan) -> None:
    total = scan.timing_ms["total"]
    if scan.result is None:
        print(f"{name}: {scan.message or 'nothing could be read'} ({total:.0f} ms)")
        return
    result = scan.result
    count = len(scan.vote.cards)
    frames = f", {len(scan.frames)} frames" if len(scan.frames) > 1 else ""
    print(f"{name}: {count} card{'' if count == 1 else 's'}{frames} ({total:.0f} ms)")
    for number, meld in enumerate(result.melds, start=1):
        verdict = meld.verdict
        codes = marked(meld.cards)
        state = "legal" if verdict.legal else "ILLEGAL"
        print(f"  meld {number}: {codes} — {verdict.label}, {state}, {verdict.points} points")
        for problem in verdict.problems:
            print(f"    {problem.message}")
    if result.red_threes:
        print(f"  red threes: {marked(result.red_threes)}")
    if result.leftovers:
        print(f"  left over: {marked(result.leftovers)}")
    for item in result.unplaced:
        print(f"  not counted: {marked([item.card])} ({item.reason})")
    if result.strays:
        marks = " ".join(f"{item.card.code}?" for item in result.strays)
        print(f"  unsure marks far from every card, not counted: {marks}")
    for problem in result.problems:
        print(f"  {problem.message}")
    totals = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in result.totals.items())
    print(f"  {totals}")
    if result.needs_check:
        print("  check the cards marked ? before this counts")
    if scan.advice is not None:
        size = f"{scan.advice.value:.1f} px"
        print(f"  {scan.advice.message} (a fifth of the corner indices measure under {size})")


def run_eval(args: argparse.Namespace) -> int:
    from model.evaluate.scenes import (
        draw_confusion,
        error_lines,
        evaluate_folder,
        report,
        scene_files,
    )
    from scanner.vision import ImageError
    from scanner.vision.images import write_image

    if not args.folder.is_dir():
        raise CommandError(f"{args.folder}: no such folder")
    if args.limit is not None and args.limit < 1:
        raise CommandError("--limit must be at least 1")
    if args.labels is not None:
        from scanner.cli.eval_labels import run_label_eval

        return run_label_eval(args)
    photos = not scene_files(args.folder, 1)
    if args.errors is not None and (photos or args.mode == "table"):
        raise CommandError("--errors lists the cards of synthetic scenes: use it in cards mode")
    if args.readings is not None:
        write_errors(args.readings, ())  # a path it cannot write is said before reading
    if photos:
        return run_photo_eval(args)
    if args.mode == "table":
        return run_table_eval(args)
    confusion = args.confusion or args.folder / "confusion.png"
    if confusion.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        raise CommandError(f"{confusion}: the confusion matrix must be a .png or .jpg file")
    if args.errors is not None:
        write_errors(args.errors, ())  # a path it cannot write is said before the scenes are read
    recogniser = load_recogniser(args)
    try:
        with ReadingsLog(args.readings) as readings:
            scores = evaluate_folder(
                args.folder,
                lambda frame: readings.kept(recogniser.read(frame, melds=args.melds)),
                args.limit,
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
    return print_eval(args, figures, error_lines(scores), print_figures)


def print_eval(args: argparse.Namespace, figures: dict, errors: Iterable[dict], words) -> int:
    """An evaluation's figures, as JSON or in ``words``, and with ``--errors`` its error
    lines written."""
    if args.errors is not None:
        write_errors(args.errors, errors)
        figures["errors"] = str(args.errors)
    if args.json:
        print_json(figures)
    else:
        words(figures)
    return EXIT_OK


class ReadingsLog:
    """``eval --readings``: each reading as one JSON line, without its timings, written as it
    is read; nothing where no path was given."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._out = None

    def __enter__(self) -> ReadingsLog:
        if self._path is not None:
            try:
                self._out = self._path.open("w", encoding="utf-8")
            except OSError as error:
                raise CommandError(
                    f"{self._path}: cannot write the readings ({error.strerror})"
                ) from None
        return self

    def __exit__(self, *exc) -> None:
        if self._out is not None:
            self._out.close()

    def kept(self, reading):
        """``reading`` (a Reading), written down."""
        if self._out is not None:
            line = {key: value for key, value in reading.as_json().items() if key != "timing_ms"}
            self._out.write(json.dumps(line, sort_keys=True) + "\n")
        return reading


def write_errors(path: Path, lines: Iterable[dict]) -> None:
    """The error listing, one JSON object a line."""
    try:
        with path.open("w", encoding="utf-8") as out:
            for line in lines:
                out.write(json.dumps(line) + "\n")
    except OSError as error:
        raise CommandError(f"{path}: cannot write the error listing ({error.strerror})") from None


def run_table_eval(args: argparse.Namespace) -> int:
    """Whole tables: melds and points against the engine's for the true cards."""
    from model.evaluate.tables import evaluate_tables, report
    from scanner.rules_files import load_rules

    rules = load_rules(args.rules)
    recogniser = load_recogniser(args)
    try:
        with ReadingsLog(args.readings) as readings:
            scores = evaluate_tables(
                args.folder,
                lambda frame, deck: readings.kept(recogniser.read(frame, deck)).cards,
                rules,
                args.limit,
            )
    except (json.JSONDecodeError, KeyError) as error:
        raise CommandError(
            f"{args.folder}: a label file is not a handfoot-scene/1 file ({error})"
        ) from None
    figures = report(scores)
    if args.json:
        print_json(figures)
    else:
        print(
            f"{_count(figures['scenes'], 'table')}: melds and total as the engine gives for "
            f"the true cards in {_percent(figures['right'])}; wrong but marked check "
            f"{_percent(figures['wrong_but_flagged'])}; wrong and not marked "
            f"{_percent(figures['silent_errors'])}\n"
            f"  melds and points right, a card read where none is set aside as not counted: "
            f"{_percent(figures['points_right'])}\n"
            f"  {_percent(figures['melds_exact'])} of {figures['melds']} true melds read exactly; "
            f"median error of the total {figures['total_error_median']} points\n"
            f"  with every card read right, grouping by layout alone gives the truth in "
            f"{_percent(figures['grouping_right'])}"
        )
    return EXIT_OK


def run_photo_eval(args: argparse.Namespace) -> int:
    """Real photographs with Pascal VOC labels instead of synthetic scenes."""
    from model.evaluate.photos import evaluate_photos, photo_files

    if not photo_files(args.folder):
        raise CommandError(
            f"{args.folder}: no scene_*.json files (write some with handfoot synth) and no "
            "photos with Pascal VOC labels"
        )
    recogniser = load_recogniser(args)
    with ReadingsLog(args.readings) as readings:
        figures = evaluate_photos(
            args.folder, lambda frame: readings.kept(recogniser.read(frame, melds=args.melds)).cards
        )
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


def _print_bins(title: str, bins: dict[str, dict], share: str, count: str) -> None:
    """One line: each bin of index sizes that holds anything, its share of ``count``."""
    shown = [
        f"{label} {_percent(part[share])} of {part[count]:,}"
        for label, part in bins.items()
        if part[count]
    ]
    if shown:
        print(f"{title}: " + ", ".join(shown))


def print_figures(figures: dict) -> None:
    parts = [
        ("all scenes", figures),
        *(
            (f"{name.replace('_', '-')} designs", part)
            for name, part in figures["by_styles"].items()
        ),
        ("scenes told their cards look small", figures["by_legibility"]["small_cards"]),
        ("the other scenes", figures["by_legibility"]["readable"]),
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
    _print_bins(
        "recall by index size (its short side)", figures["recall_by_index_size"], "recall", "cards"
    )
    _print_bins(
        "scenes read exactly, by their smallest card's index",
        figures["exact_by_smallest_index"],
        "exact_scenes",
        "scenes",
    )
    tables = [
        f"{name} {part['errors']} in {_count(part['scenes'], 'scene')}"
        for name, part in list(figures["by_table"].items())[:5]
        if part["errors"]
    ]
    if tables:
        print("most errors by table: " + ", ".join(tables))
    weakest = sorted(figures["per_class_recall"].items(), key=lambda item: item[1])[:8]
    if weakest:
        print("weakest classes: " + ", ".join(f"{c} {_percent(r)}" for c, r in weakest))
    print(f"confusion matrix: {figures['confusion']}")
    if "errors" in figures:
        print(f"every error, a line each: {figures['errors']}")

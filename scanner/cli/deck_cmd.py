"""``handfoot deck teach|list|show|delete|export|import``: a table's own decks, taught from a
photo of the deck laid out or from photos labelled with boxes, kept in the game record; and
``--deck NAME`` for ``scan`` and ``eval``, which read with a taught deck's profile."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from scanner.cli.common import EXIT_OK, CommandError


def register(subcommands: argparse._SubParsersAction) -> None:
    deck = subcommands.add_parser(
        "deck",
        help="teach the reader a table's own deck, and list, show or delete taught decks",
        description="A taught deck adapts the reader to one deck's print without changing the "
        "models: lay the deck out under the camera (standard: A to K of a red suit in one row, "
        "of a black suit in the next, then a joker; special: 1 to 12, then LORD LADY VILLAIN "
        "JESTER JOKER), photograph it, and teach it. Scan and eval read with it through "
        "--deck NAME.",
    )
    actions = deck.add_subparsers(dest="action", metavar="ACTION", required=True)
    teach = actions.add_parser(
        "teach",
        help="teach deck NAME from PHOTOs of it laid out, or from photos with boxes (--voc)",
        description="Read each PHOTO of the deck laid out in --layout's order, give every "
        "index found the code its place says, and keep them as deck NAME (taught again, its "
        "taught examples are replaced; the corrections it learnt are kept). With --voc, teach "
        "from photos with Pascal VOC boxes instead, one per card or per corner index, named "
        "by the card's code (5C, QR, LADY) or its rank alone (Q, queen).",
    )
    teach.add_argument("name", metavar="NAME", help="the deck's name, e.g. \"Grandma's blue\"")
    teach.add_argument("photos", nargs="*", type=Path, metavar="PHOTO")
    teach.add_argument(
        "--layout",
        choices=("standard", "special"),
        default="standard",
        help="the deck and the order it is laid out in (default standard)",
    )
    teach.add_argument(
        "--voc", type=Path, metavar="DIR", help="teach from the photos with VOC boxes in DIR"
    )
    listing = actions.add_parser("list", help="the taught decks")
    show = actions.add_parser("show", help="what deck NAME was taught")
    show.add_argument("name", metavar="NAME")
    delete = actions.add_parser("delete", help="forget deck NAME")
    delete.add_argument("name", metavar="NAME")
    export = actions.add_parser("export", help="write deck NAME to one FILE")
    export.add_argument("name", metavar="NAME")
    export.add_argument("file", type=Path, metavar="FILE")
    load = actions.add_parser("import", help="keep the deck in FILE (written by export)")
    load.add_argument("file", type=Path, metavar="FILE")
    load.add_argument("--name", help="keep it under this name instead of its own")
    for parser in (teach, listing, show, delete, export, load):
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        add_data_argument(parser)
    from scanner.cli.scan_cmd import add_model_arguments

    add_model_arguments(teach, deck=False)
    deck.set_defaults(run=run_deck)


def add_data_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="the data folder that keeps the taught decks (default: the one `handfoot serve` uses)",
    )


def add_deck_argument(parser: argparse.ArgumentParser) -> None:
    """``--deck NAME`` (and ``--data``, where it is kept): read with a taught deck."""
    parser.add_argument(
        "--deck",
        metavar="NAME",
        help="read with taught deck NAME (see `handfoot deck teach`)",
    )
    if not any("--data" in action.option_strings for action in parser._actions):
        add_data_argument(parser)


def open_store(args: argparse.Namespace):
    from scanner.store import Store, StoreError

    try:
        return Store.open(args.data)
    except StoreError as error:
        raise CommandError(str(error)) from None


def with_deck(args: argparse.Namespace, recogniser):
    """``recogniser`` reading with the profile of ``--deck`` (as it is without one)."""
    name = getattr(args, "deck", None)
    if not name:
        return recogniser
    from scanner.decks.profiles import Profiles
    from scanner.store import StoreError
    from scanner.vision import RecogniserError

    with open_store(args) as store:
        try:
            return Profiles(store, recogniser).reader(name)
        except (StoreError, RecogniserError) as error:
            raise CommandError(str(error)) from None


def run_deck(args: argparse.Namespace) -> int:
    from scanner.store import StoreError

    try:
        return ACTIONS[args.action](args)
    except StoreError as error:
        raise CommandError(str(error)) from None


def _teach(args: argparse.Namespace) -> int:
    from scanner.cli.scan_cmd import load_recogniser
    from scanner.decks.profiles import examples_of
    from scanner.decks.teach import TeachingError, from_boxes, from_layout, voc_photos
    from scanner.vision.contract import SPECIAL_CLASSES
    from scanner.vision.images import ImageError, read_image

    if args.photos and args.voc:
        raise CommandError("give the PHOTOs of the deck laid out, or --voc DIR, not both")
    if not args.photos and not args.voc:
        raise CommandError("give a PHOTO of the deck laid out (or --voc DIR of labelled photos)")
    recogniser = load_recogniser(args)
    started = time.perf_counter()
    try:
        if args.voc:
            photos = voc_photos(args.voc)
            lesson = from_boxes(recogniser, ((read_image(p), boxes) for p, boxes in photos))
            layout = "special" if set(lesson.found) & set(SPECIAL_CLASSES) else "standard"
        else:
            lesson = from_layout(recogniser, (read_image(p) for p in args.photos), args.layout)
            layout = args.layout
    except (TeachingError, ImageError) as error:
        raise CommandError(str(error)) from None
    if not lesson.cards:
        raise CommandError("no card's index was found in the photos: nothing to teach")
    with open_store(args) as store:
        examples = examples_of(lesson.taught)
        deck = store.teach_deck(args.name, layout, examples, recogniser.contract.classes)
        # fitting once here says at once whether the reader can use it
        from scanner.decks.profiles import Profiles

        Profiles(store, recogniser).profile(deck.name)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"deck": deck.to_json(), "lesson": lesson.as_json(), "seconds": seconds}))
        return EXIT_OK
    print(
        f"deck {deck.name!r} ({layout}) taught from {lesson.photos} photo(s) in {seconds:.1f} s: "
        f"{lesson.cards} index crops of {len(lesson.found)} cards, "
        f"{len(lesson.taught) - lesson.cards} marks that are no card's"
    )
    if lesson.missing:
        print(f"not found (lay them out and teach again): {' '.join(lesson.missing)}")
    if lesson.extra:
        print(f"{lesson.extra} card(s) read that no place of the layout takes")
    return EXIT_OK


def _list(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        decks = store.decks()
    if args.json:
        print(json.dumps([d.to_json() for d in decks]))
    elif not decks:
        print("no deck taught yet (see `handfoot deck teach --help`)")
    for deck in [] if args.json else decks:
        print(_line(deck))
    return EXIT_OK


def _line(deck) -> str:
    return (
        f"{deck.name}: {deck.layout} deck, {deck.taught} examples taught, "
        f"{deck.corrected} from corrections (changed {deck.updated_at})"
    )


def _show(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        deck = store.deck(args.name)
        examples = store.deck_examples(deck.name)
    from scanner.decks.layouts import layout_codes

    order = {code: n for n, code in enumerate(layout_codes(deck.layout))}
    counts: dict[str, int] = {}
    for example in sorted(examples, key=lambda e: order.get(e.code, len(order))):
        counts[example.code] = counts.get(example.code, 0) + 1
    if args.json:
        print(json.dumps({**deck.to_json(), "codes": counts}))
        return EXIT_OK
    print(_line(deck))
    cards = [f"{code} {n}" for code, n in counts.items() if code in order]
    print("examples per card: " + (", ".join(cards) or "none"))
    if "none" in counts:
        print(f"marks taught as no card's index: {counts['none']}")
    return EXIT_OK


def _delete(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        deck = store.deck(args.name)
        store.delete_deck(deck.name)
    print(json.dumps({"deleted": deck.name}) if args.json else f"deck {deck.name!r} deleted")
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    from scanner.decks.profiles import write_deck_file

    with open_store(args) as store:
        try:
            deck = write_deck_file(store, args.name, args.file)
        except OSError as error:
            raise CommandError(f"{args.file}: cannot be written ({error.strerror})") from None
    print(json.dumps(deck.to_json()) if args.json else f"deck {deck.name!r} written to {args.file}")
    return EXIT_OK


def _import(args: argparse.Namespace) -> int:
    from scanner.decks.profiles import DeckFileError, read_deck_file
    from scanner.vision.contract import Contract
    from scanner.vision.networks import default_model_dir

    contract = Contract.load(default_model_dir())
    try:
        name, layout, examples = read_deck_file(
            args.file, contract.classes, (contract.crop_h, contract.crop_w)
        )
    except DeckFileError as error:
        raise CommandError(str(error)) from None
    with open_store(args) as store:
        deck = store.teach_deck(args.name or name, layout, examples, contract.classes)
    print(json.dumps(deck.to_json()) if args.json else f"deck {deck.name!r} kept: {_line(deck)}")
    return EXIT_OK


ACTIONS = {
    "teach": _teach,
    "list": _list,
    "show": _show,
    "delete": _delete,
    "export": _export,
    "import": _import,
}

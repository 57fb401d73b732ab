"""``handfoot synth``: render labelled table scenes to a folder, or a contact sheet to look at."""

from __future__ import annotations

import argparse
from pathlib import Path

from scanner.cli.common import EXIT_OK, CommandError


def frame_size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    try:
        size = int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1280x960") from None
    if not (64 <= size[0] <= 8192 and 64 <= size[1] <= 8192):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be 64 to 8192")
    return size


def name_list(text: str) -> tuple[str, ...]:
    """``a, b,c`` as ("a", "b", "c")."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--split", choices=("train", "test"), default="train")
    parser.add_argument("--deck", choices=("standard", "special", "both"), default="both")
    parser.add_argument(
        "--layout",
        choices=("training", "side", "leftovers"),
        default="training",
        help="what lies on the table: busy training tables (default), one side's melds seen "
        "from a stand, or a hand's leftover cards spread out",
    )
    parser.add_argument(
        "--size", type=frame_size, default=None, help="frame size WxH (default: camera sizes vary)"
    )


def register(subcommands: argparse._SubParsersAction) -> None:
    parser = subcommands.add_parser(
        "synth",
        help="render labelled overhead scenes of card tables",
        description="Render COUNT scenes (a JPEG and a labels JSON each) into --out, and/or a "
        "contact sheet with every label drawn into --preview. Same arguments, same bytes.",
    )
    parser.add_argument("--out", type=Path, help="folder for the scenes")
    parser.add_argument("--preview", type=Path, metavar="FILE.png", help="write a contact sheet")
    parser.add_argument("--count", type=int, default=None, help="scenes (default 100; preview 6)")
    add_run_arguments(parser)
    parser.add_argument(
        "--styles",
        type=name_list,
        default=(),
        metavar="NAME[,NAME…]",
        help="draw the cards from these designs alone (all of --deck), to teach them",
    )
    parser.add_argument(
        "--surfaces",
        type=name_list,
        default=(),
        metavar="NAME[,NAME…]",
        help="lay the cards on these table surfaces alone, to teach them",
    )
    parser.add_argument(
        "--art",
        type=float,
        default=None,
        metavar="SHARE",
        help="share of the standard designs drawn as printed decks (Debian's SVG decks; "
        "default 0.4 in a training run, 0 in a test run, which draws the held-out ones)",
    )
    parser.add_argument(
        "--typefaces",
        type=float,
        default=None,
        metavar="SHARE",
        help="share of the designs (both decks) printed in a typeface found in the font "
        "packages, the special deck's words in either case, its inks and corners drawn: "
        "decks by other hands (default 0.3 in a training run, 0 in a test run, which draws "
        "held-out typefaces)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--resume", action="store_true", help="keep scenes already in --out and draw the rest"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.out is None and args.preview is None:
        raise CommandError("synth needs --out DIR (scenes) or --preview FILE.png (a contact sheet)")
    if args.count is not None and args.count < 1:
        raise CommandError("--count must be at least 1")
    if args.jobs < 1:
        raise CommandError("--jobs must be at least 1")
    from model.synth.dataset import RunMismatchError, RunSpec, write_preview, write_run
    from model.synth.scene import check_styles, check_surfaces, default_art, default_typefaces

    try:
        check_styles(args.styles, args.split, args.deck)
        check_surfaces(args.surfaces, args.split)
    except (ValueError, KeyError) as error:
        raise CommandError(str(error.args[0] if isinstance(error, KeyError) else error)) from None
    if args.art is not None and not 0 <= args.art <= 1:
        raise CommandError("--art must be a share from 0 to 1")
    if args.typefaces is not None and not 0 <= args.typefaces <= 1:
        raise CommandError("--typefaces must be a share from 0 to 1")
    spec = RunSpec(
        args.seed,
        args.split,
        args.deck,
        args.size,
        args.layout,
        args.styles,
        args.surfaces,
        default_art(args.split) if args.art is None else args.art,
        default_typefaces(args.split) if args.typefaces is None else args.typefaces,
    )
    if args.out is not None:
        if args.out.exists() and not args.out.is_dir():
            raise CommandError(f"{args.out}: exists and is not a folder")
        count = args.count or 100
        try:
            write_run(
                args.out, spec, count, jobs=args.jobs, progress=not args.quiet, resume=args.resume
            )
        except RunMismatchError as error:
            raise CommandError(str(error)) from None
        print(f"wrote {count} scenes to {args.out}")
    if args.preview is not None:
        if args.preview.suffix.lower() not in (".png", ".jpg", ".jpeg"):
            raise CommandError(f"{args.preview}: the contact sheet must be a .png or .jpg file")
        write_preview(args.preview, spec, args.count or 6)
        print(f"wrote a contact sheet to {args.preview}")
    return EXIT_OK

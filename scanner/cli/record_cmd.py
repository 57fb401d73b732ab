"""``handfoot backup FILE`` and ``handfoot restore FILE``: a whole copy of the game record, taken
while the table plays, and put back when the table is stopped."""

from __future__ import annotations

import argparse
from pathlib import Path

from scanner.cli.common import EXIT_OK, CommandError


def register(subcommands: argparse._SubParsersAction) -> None:
    backup = subcommands.add_parser(
        "backup",
        help="copy the game record to FILE (while the table plays, too)",
        description="Copy the game record, with every change not yet folded into its main "
        "file, to FILE: one SQLite file that `handfoot restore` puts back. The scan photos "
        "stay in the data folder's scans/ folder; copy it too to keep them.",
    )
    backup.add_argument("file", type=Path, metavar="FILE", help="the copy to write")
    restore = subcommands.add_parser(
        "restore",
        help="put a copy made by `handfoot backup` back as the game record",
        description="Check FILE and make it the game record. The table must be stopped; the "
        "record it replaces is kept beside it as handfoot.sqlite3.before-restore-TIME.",
    )
    restore.add_argument("file", type=Path, metavar="FILE", help="a copy made by backup")
    for parser in (backup, restore):
        parser.add_argument(
            "--data",
            type=Path,
            metavar="DIR",
            help="the data folder (default: the one `handfoot serve` uses)",
        )
    backup.set_defaults(run=run_backup)
    restore.set_defaults(run=run_restore)


def _data_dir(args: argparse.Namespace) -> Path:
    from scanner.store import default_data_dir

    return args.data if args.data is not None else default_data_dir()


def run_backup(args: argparse.Namespace) -> int:
    from scanner.store import StoreError
    from scanner.store.backup import backup

    data_dir = _data_dir(args)
    try:
        held = backup(data_dir, args.file)
    except StoreError as error:
        raise CommandError(str(error)) from None
    print(f"{args.file}: {held['games']} games, {held['deals']} deals, copied from {data_dir}")
    return EXIT_OK


def run_restore(args: argparse.Namespace) -> int:
    from scanner.store import StoreError
    from scanner.store.backup import restore
    from scanner.store.lock import FolderLock

    data_dir = _data_dir(args)
    try:
        with FolderLock.take(data_dir):
            held = restore(args.file, data_dir)
    except StoreError as error:
        raise CommandError(str(error)) from None
    print(f"{data_dir}: {held['games']} games, {held['deals']} deals, restored from {args.file}")
    return EXIT_OK

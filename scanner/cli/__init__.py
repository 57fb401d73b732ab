"""The ``handfoot`` command: one entry point, one module per group of subcommands.

Exit codes: 0 success, 1 the answer is "no" (an illegal meld, an impossible deal), 2 the input
could not be used. Errors are one plain line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from engine import HandfootError
from scanner.cli import (
    bench_cmd,
    deck_cmd,
    meld_cmd,
    record_cmd,
    rules_cmd,
    scan_cmd,
    score_cmd,
    serve_cmd,
    synth_cmd,
)
from scanner.cli.common import EXIT_UNUSABLE, CommandError

log = logging.getLogger(__name__)
COMMANDS = (
    rules_cmd,
    meld_cmd,
    score_cmd,
    synth_cmd,
    scan_cmd,
    bench_cmd,
    deck_cmd,
    serve_cmd,
    record_cmd,
)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line like every other error, and main() returns
    its exit code instead of the process ending inside the parser."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see `{self.prog} --help`)")


class UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="handfoot",
        description="Hand and Foot at the table: check melds, score deals and games.",
    )
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(subcommands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as error:
        print(f"handfoot: {error}", file=sys.stderr)
        return EXIT_UNUSABLE
    except SystemExit as done:  # --help and --version end here
        return done.code if isinstance(done.code, int) else 0
    try:
        return args.run(args)
    except (HandfootError, CommandError) as error:
        print(f"handfoot: {error}", file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        # The reader went away (`handfoot rules | head`): nothing more to say to it.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        if os.environ.get("HANDFOOT_DEBUG"):
            raise
        log.debug("unexpected error", exc_info=True)
        print(
            f"handfoot: something went wrong inside handfoot ({type(error).__name__}: {error}); "
            "run again with HANDFOOT_DEBUG=1 to see the details",
            file=sys.stderr,
        )
        return 3


if __name__ == "__main__":
    sys.exit(main())

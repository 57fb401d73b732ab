"""What the subcommands share: exit codes, reading input files, printing JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_NO = 1
EXIT_UNUSABLE = 2


class CommandError(Exception):
    """Input the command cannot use; the message is shown as it is."""


def read_json(name: str) -> tuple[Any, Path | None]:
    """Decode the JSON in file ``name`` (``-``: standard input). Returns the data and the
    folder the file is in, for finding the rules files it names."""
    try:
        if name == "-":
            text, folder = sys.stdin.read(), None
        else:
            path = Path(name)
            text, folder = path.read_text(encoding="utf-8-sig"), path.parent
    except FileNotFoundError:
        raise CommandError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise CommandError(f"{name}: is a folder, not a file") from None
    except UnicodeDecodeError:
        raise CommandError(f"{name}: is not UTF-8 text") from None
    except OSError as error:
        raise CommandError(f"{name}: cannot be read ({error.strerror or error})") from None
    try:
        return json.loads(text), folder
    except json.JSONDecodeError as error:
        shown = "standard input" if name == "-" else name
        raise CommandError(
            f"{shown}: not valid JSON at line {error.lineno}, column {error.colno} ({error.msg})"
        ) from None


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))

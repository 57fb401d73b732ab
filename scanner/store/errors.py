"""Everything the game record refuses, in one place. Messages are sentences a person can act on;
each error also carries the input it is about, so a caller need not parse the message."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar


class StoreError(Exception):
    """The game record cannot do what was asked; the message says why."""


class NotFound(StoreError):
    """An unknown game, deal, scan or image file (the web page answers 404).

    >>> str(NotFound("game", 7))
    'There is no game 7.'
    """

    def __init__(self, kind: str, key: object) -> None:
        self.kind = kind
        self.key = key
        super().__init__(f"There is no {kind} {key}.")


class UnsafePath(NotFound):
    """A file name that would lead outside the scan images (``../``, an absolute path, a link
    out of the folder). It is a :class:`NotFound` so a web route that maps that to 404 tells a
    prober nothing more."""

    def __init__(self, relative: str) -> None:
        super().__init__("image file", repr(relative))
        self.args = (f"{relative!r} is not a scan image of this game record.",)


class Conflict(StoreError):
    """The request contradicts what is already recorded (the web page answers 409)."""

    def __init__(self, message: str, *, game_id: int, number: int | None = None) -> None:
        self.game_id = game_id
        self.number = number
        super().__init__(message)


class BadValue(StoreError):
    """A value the record cannot keep: a side without a name, a reading that is not JSON."""

    def __init__(self, what: str, value: object, reason: str) -> None:
        self.what = what
        self.value = value
        super().__init__(f"The {what} {_short(value)} cannot be stored: {reason}.")


class NotAStore(StoreError):
    """The database file exists but is not a readable handfoot record. It is never replaced:
    it may be the only copy of someone's games."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        super().__init__(
            f"{path} is not a usable handfoot game record ({reason}). "
            "It has been left untouched; move it aside to start a new record, "
            "or restore it from a backup."
        )


class NewerSchema(StoreError):
    """The file was written by a newer handfoot; opening it here could damage it."""

    def __init__(self, path: Path, found: int, known: int) -> None:
        self.path = path
        self.found = found
        self.known = known
        super().__init__(
            f"{path} has schema version {found}, but this handfoot knows only up to "
            f"version {known}. Upgrade handfoot to open it; the file has been left untouched."
        )


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class DamagedRow(StoreError):
    """A row whose stored JSON no longer reads: found at start, or by a read while running.

    >>> str(DamagedRow(Path("h.sqlite3"), "deal 2 of game 1", "result")).split(":")[0]
    'The game record h.sqlite3 is damaged'
    """

    def __init__(self, path: Path | None, what: str, column: str) -> None:
        self.path = path
        self.what = what
        self.column = column
        record = "The game record" + (f" {path}" if path else "")
        super().__init__(
            f"{record} is damaged: the {column} of {what} cannot be read. "
            "The file has been left untouched; restore a backup (handfoot restore FILE), "
            "or move it aside to start a new record."
        )


class StorageFault(StoreError):
    """The disk under the game record refuses writes: ``kind`` is ``"full"``, ``"read-only"``
    or ``"failing"``. Not a camera fault: the panel shows its own code for it."""

    SENTENCES: ClassVar[dict[str, str]] = {
        "full": "the disk is full",
        "read-only": "the data folder cannot be written to (it is read-only)",
        "failing": "the disk reports errors",
    }

    def __init__(self, kind: str, where: Path, detail: str = "") -> None:
        self.kind = kind
        self.where = where
        said = self.SENTENCES.get(kind, kind)
        more = f" ({detail})" if detail else ""
        super().__init__(
            f"The game record cannot be saved: {said}{more}. Free some space or fix the "
            f"data folder {where}; nothing else was changed."
        )


class FolderInUse(StoreError):
    """Another handfoot process keeps its games in this data folder."""

    def __init__(self, folder: Path, holder: str) -> None:
        self.folder = folder
        self.holder = holder
        super().__init__(
            f"The data folder {folder} is in use by another handfoot ({holder}): stop it "
            "first, or give this one another folder with --data."
        )

"""Everything the game record refuses, in one place. Messages are sentences a person can act on;
each error also carries the input it is about, so a caller need not parse the message."""

from __future__ import annotations

from pathlib import Path


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

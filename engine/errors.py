"""Every error the engine raises, each carrying the input that caused it.

All of them derive from :class:`HandfootError`, so a caller (the CLI, the web page) can turn any
of them into one plain sentence for a player without catching anything broader.
"""

from __future__ import annotations


class HandfootError(Exception):
    """Base class: the message is a complete sentence a player can read."""


class UnknownCardError(HandfootError, ValueError):
    """A token that is not a card of the deck in play."""

    def __init__(self, token: str, deck_name: str, hint: str = "") -> None:
        self.token = token
        self.deck_name = deck_name
        self.hint = hint
        message = f"{token!r} is not a card of the {deck_name}"
        super().__init__(f"{message} ({hint})" if hint else message)


class RulesError(HandfootError, ValueError):
    """A rule set that cannot be played: unknown preset, unknown key or impossible value."""

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None) -> None:
        self.reason = message
        self.key = key
        self.source = source
        where = f"{source}: " if source else ""
        what = f"{key}: " if key else ""
        super().__init__(f"{where}{what}{message}")


class DealFormatError(HandfootError, ValueError):
    """A deal or game description that cannot be read (missing field, wrong type, bad card)."""

    def __init__(self, message: str, *, path: str = "") -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)

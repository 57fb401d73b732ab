"""Everything the table service refuses, in one place. Each message is a sentence a player can
act on, and each error carries the input it is about; ``status`` is the HTTP answer the web page
gives for it."""

from __future__ import annotations

from scanner.service.said import Said


class ServiceError(Exception):
    """Base class: the message is one plain sentence (a :class:`Said` where the page can say
    it in its own language: :attr:`said`)."""

    status = 400

    @property
    def said(self) -> Said | None:
        first = self.args[0] if self.args else None
        return first if isinstance(first, Said) else None


class BadInput(ServiceError):
    """A value from the page or the panel that cannot be used; ``field`` names it.

    >>> str(BadInput("mode", "fast", "must be meld, table or leftovers"))
    "The mode 'fast' cannot be used: must be meld, table or leftovers."
    """

    status = 400

    def __init__(self, field: str, value: object, reason: str, said: Said | None = None) -> None:
        """``said``: the same sentence as the page says it in its language, where it can."""
        self.field = field
        self.value = value
        super().__init__(said or f"The {field} {shown(value)} cannot be used: {reason}.")


def shown(value: object) -> str:
    """A value as a refusal quotes it: its repr, cut short."""
    text = repr(value)
    return text[:57] + "..." if len(text) > 60 else text


class BadRules(BadInput):
    """House rules the engine refuses; the engine's sentence names the key and the problem."""

    def __init__(self, reason: str) -> None:
        self.field, self.value = "house rules", None
        ServiceError.__init__(self, f"These house rules cannot be used ({reason}).")


class BadUpload(ServiceError):
    """A photo that is not a picture (or is empty)."""

    status = 400


class NoSuchThing(ServiceError):
    """An unknown game, deal, scan, card or side."""

    status = 404

    def __init__(self, kind: str, key: object) -> None:
        self.kind = kind
        self.key = key
        super().__init__(f"There is no {kind} {key}.")


class Busy(ServiceError):
    """A scan is running; the camera takes one scan at a time."""

    status = 409

    def __init__(self) -> None:
        super().__init__(Said.of("busy"))


class NotNow(ServiceError):
    """The request is fine but the table is not in a state for it (no game, game over, cards
    still to check)."""

    status = 409


class Stale(NotNow):
    """The page asked about a deal the table has left (another phone confirmed it)."""

    def __init__(self, asked: int, now: int | None) -> None:
        self.asked = asked
        self.now = now
        if now is None:
            super().__init__(Said.of("stale_over", asked=asked))
        else:
            super().__init__(Said.of("stale", asked=asked, now=now))


class CannotScan(ServiceError):
    """The camera did not answer, or no frame could be read (too dark, blurred)."""

    status = 503

    def __init__(self, message: str, *, code: int) -> None:
        self.code = code  # shown on the panel as "Err N"
        super().__init__(message)


class Unreadable(CannotScan):
    """Frames were taken but none was good enough to read."""

    status = 422

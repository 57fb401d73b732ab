"""What the engine reports when something on the table breaks a rule."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum


class Code(Enum):
    """Stable codes: the CLI's JSON, the web page and the panel key on these, never on wording."""

    TOO_FEW_CARDS = "too-few-cards"
    TOO_MANY_CARDS = "too-many-cards"
    MIXED_RANKS = "mixed-ranks"
    THREE_IN_MELD = "three-in-meld"
    NOT_MELDABLE = "not-meldable"
    LADY_CAP = "lady-cap"
    TOO_MANY_WILDS = "too-many-wilds"
    WILD_MELD_NOT_ALLOWED = "wild-meld-not-allowed"
    WILD_IN_BLACK_THREES = "wild-in-black-threes"
    SECOND_INCOMPLETE_MELD = "second-incomplete-meld"
    SECOND_MELD = "second-meld"
    INITIAL_MINIMUM = "initial-minimum"
    CONCEALED_CANASTA = "concealed-canasta"
    WENT_OUT_WITHOUT_BOOKS = "went-out-without-books"
    SEVERAL_WENT_OUT = "several-went-out"
    WENT_OUT_WITH_FOOT = "went-out-with-foot"
    NOT_A_RED_THREE = "not-a-red-three"


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule: a stable code and a sentence a player understands.

    ``side`` and ``meld`` (1-based, in the order the side's melds were given) say where it is
    when the problem was found on a whole table.
    """

    code: Code
    message: str
    side: str | None = None
    meld: int | None = None

    def at(self, *, side: str | None = None, meld: int | None = None) -> Problem:
        return replace(
            self,
            side=side if side is not None else self.side,
            meld=meld if meld is not None else self.meld,
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code.value,
            "message": self.message,
            "side": self.side,
            "meld": self.meld,
        }

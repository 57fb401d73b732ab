"""What the engine reports when something on the table breaks a rule.

Each problem is said in English (``message``, what the CLI prints) and, beside it, as a
sentence key of :data:`SENTENCES` and the values that fill it in, so that a page can say the
same sentence in its players' language from its own catalogue. A value is a number, a name or a
card code (said as it is), a :class:`Phrase` (a part said in the language too, such as "kings")
or a :class:`Listed` run of them ("kings, queens and jacks").

>>> problem = Problem.of(Code.MIXED_RANKS, "mixed_ranks",
...                      ranks=Listed.of([Phrase.of("ranks_king"), Phrase.of("ranks_queen")]))
>>> problem.message
'a meld is of one rank: this one mixes kings and queens'
>>> problem.to_dict()["said"]["values"]["ranks"]["list"][0]
{'key': 'ranks_king', 'values': {}}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

# Every sentence the engine can say about a problem, in English; a page's catalogue says each
# again under ``problem.KEY`` (a test keeps the English catalogue equal to these).
SENTENCES = {
    "wild_in_black_threes": "a meld of black threes may not hold wild cards",
    "red_three_in_meld": "red threes are laid apart, never in a meld",
    "black_threes_never": "black threes are never melded",
    "black_threes_only": "black threes are melded only with black threes",
    "villain": "a Villain is never melded: it can only be discarded",
    "mixed_ranks": "a meld is of one rank: this one mixes {ranks}",
    "too_few_cards": "a meld needs at least {minimum} cards (this one has {size})",
    "too_few_cards_lady": (
        "a meld needs at least {minimum} cards besides its Lady (this one has {size} and {ladies})"
    ),
    "ladies_one": "1 Lady",
    "ladies_many": "{count} Ladies",
    "too_many_cards": "a meld may hold at most {maximum} cards (this one has {size})",
    "wild_meld_not_allowed": "a meld of only wild cards is not allowed in {rules}",
    "too_many_wilds": "a dirty meld of {size} cards may hold only {limit} (this one has {wilds})",
    "wilds_none": "no wild card",
    "wilds_one": "1 wild card",
    "wilds_many": "{count} wild cards",
    "lady_cap_many": "a group takes one Lady on top (this one has {ladies})",
    "lady_cap": "a Lady may only be laid on top of a complete clean group",
    "second_meld": "only one meld of {ranks} is allowed in {rules} (meld {first} is one)",
    "second_incomplete_meld": (
        "a second incomplete meld of {ranks}: meld {first} must be completed before another starts"
    ),
    "concealed_canasta": (
        "the first meld of deal {deal} must be a concealed canasta: "
        "{size} or more cards melded from the hand at once"
    ),
    "initial_minimum": (
        "the first meld of deal {deal} needs at least {minimum} points (these cards make {points})"
    ),
    "not_a_red_three": "only red threes are laid apart from the melds ({card} is not one)",
    "went_out_without_books": (
        "{side} went out without the books deal {deal} requires ({requirement}); it has {has}"
    ),
    # one book and several: the same in English, not in every language
    "books_clean": "{count} clean",
    "books_clean_many": "{count} clean",
    "books_dirty": "{count} dirty",
    "books_dirty_many": "{count} dirty",
    "books_wild": "{count} wild",
    "books_wild_many": "{count} wild",
    "books_any": "{count} of any kind",
    "books_any_many": "{count} of any kind",
    "books_any_more": "{count} more of any kind",
    "books_any_more_many": "{count} more of any kind",
    "books_none": "no books",
    "has_books": "{clean} clean, {dirty} dirty",
    "has_books_wild": "{clean} clean, {dirty} dirty, {wild} wild",
    "went_out_with_foot": "{side} went out but still has a foot that was never picked up",
    "several_went_out": (
        "only one side can go out in a deal, but {sides} are marked as having gone out"
    ),
    # Names of ranks, as a problem names a meld's rank ("a second incomplete meld of kings").
    "ranks_ace": "aces",
    "ranks_two": "twos",
    "ranks_three": "threes",
    "ranks_four": "fours",
    "ranks_five": "fives",
    "ranks_six": "sixes",
    "ranks_seven": "sevens",
    "ranks_eight": "eights",
    "ranks_nine": "nines",
    "ranks_ten": "tens",
    "ranks_jack": "jacks",
    "ranks_queen": "queens",
    "ranks_king": "kings",
    "ranks_joker": "jokers",
    "ranks_number": "{number}s",
    "ranks_lord": "Lords",
    "ranks_lady": "Ladies",
    "ranks_villain": "Villains",
    "ranks_jester": "Jesters",
    "ranks_special_joker": "Jokers",
    "ranks_wild": "wild cards",
    "ranks_cards": "cards",
}

# How a run of parts is joined: "kings, queens and jacks", "1 clean + 1 dirty".
JOINERS = ("and", "plus")


@dataclass(frozen=True, slots=True)
class Phrase:
    """A part of a sentence that is said in the language too: a key of :data:`SENTENCES`."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @classmethod
    def of(cls, key: str, **values: Any) -> Phrase:
        if key not in SENTENCES:
            raise KeyError(f"no sentence {key!r} among the engine's problems")
        return cls(key, values)

    def __str__(self) -> str:
        return say(self.key, self.values)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "values": {k: to_json(v) for k, v in self.values.items()}}


@dataclass(frozen=True, slots=True)
class Listed:
    """Parts said one after the other: ``a, b and c`` or ``a + b``."""

    items: tuple[Any, ...]
    joined: str = "and"

    @classmethod
    def of(cls, items: Iterable[Any], joined: str = "and") -> Listed:
        if joined not in JOINERS:
            raise ValueError(f"a list is joined by {' or '.join(JOINERS)}, not {joined!r}")
        return cls(tuple(items), joined)

    def __str__(self) -> str:
        words = [str(item) for item in self.items]
        if self.joined == "plus":
            return " + ".join(words)
        return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)

    def to_json(self) -> dict[str, Any]:
        return {"list": [to_json(item) for item in self.items], "joined": self.joined}


def to_json(value: Any) -> Any:
    return value.to_json() if isinstance(value, Phrase | Listed) else value


def say(key: str, values: Mapping[str, Any]) -> str:
    """The English sentence ``key`` with its values filled in."""
    return SENTENCES[key].format(**{name: str(v) for name, v in values.items()})


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
    when the problem was found on a whole table. ``key`` and ``values`` say ``message`` again
    (:data:`SENTENCES`); build a problem with :meth:`of` so that the two always agree.
    """

    code: Code
    message: str
    side: str | None = None
    meld: int | None = None
    key: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @classmethod
    def of(cls, code: Code, key: str, **values: Any) -> Problem:
        return cls(code, say(key, values), key=key, values=values)

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
            "said": self.said(),
        }

    def said(self) -> dict[str, Any] | None:
        """The sentence as a key and values (None for a problem made without a key)."""
        if self.key is None:
            return None
        return {"key": self.key, "values": {k: to_json(v) for k, v in self.values.items()}}

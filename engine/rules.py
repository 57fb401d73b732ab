"""Rule sets: every number and choice that differs between tables, as one frozen, validated record.

No table plays the same Hand and Foot, so nothing in the engine hard-codes a rule: presets
(``engine.presets``) are instances of :class:`RuleSet` and a house-rules file
(``engine.house_rules``) is read into the same record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from enum import Enum
from types import MappingProxyType

from engine.cards import Card, Deck, Rank
from engine.errors import RulesError, UnknownCardError
from engine.problems import Listed, Phrase


class PlayStyle(Enum):
    PARTNERSHIP = "partnership"
    INDIVIDUAL = "individual"
    EITHER = "either"


class RedThrees(Enum):
    BONUS = "bonus"  # + points when laid, − points when held or in an untaken foot
    PENALTY = "penalty"  # − points wherever they are: they are discarded at once, never laid
    NONE = "none"  # the deck has no red threes


class MeldsPerRank(Enum):
    ONE_INCOMPLETE = "one-incomplete"  # a second meld of a rank only once the first is a book
    ONE = "one"  # one meld of each rank at all


@dataclass(frozen=True, slots=True)
class BookRequirement:
    """The complete books a side needs before one of its players may go out.

    ``any`` counts books of any kind on top of the named ones.
    """

    clean: int = 0
    dirty: int = 0
    wild: int = 0
    any: int = 0

    def describe(self) -> str:
        return str(self.phrase())

    def phrase(self) -> Phrase | Listed:
        """What it asks for, as a part of a sentence said in any language ("1 clean + 1 dirty")."""

        def part(kind: str, count: int) -> Phrase:
            return Phrase.of(f"books_{kind}" + ("" if count == 1 else "_many"), count=count)

        parts = [
            part(kind, n)
            for n, kind in ((self.clean, "clean"), (self.dirty, "dirty"), (self.wild, "wild"))
            if n
        ]
        if self.any:
            parts.append(part("any_more" if parts else "any", self.any))
        return Listed.of(parts, joined="plus") if parts else Phrase.of("books_none")

    @property
    def total(self) -> int:
        return self.clean + self.dirty + self.wild + self.any


def value_key(card: Card) -> str | None:
    """The key of ``card`` in a rule set's card values, or None for cards whose worth is a rule
    of its own (red threes, Ladies)."""
    if card.is_red_three or card.rank is Rank.LADY:
        return None
    if card.is_black_three:
        return "3B"
    return card.rank.token


def value_keys(deck: Deck) -> tuple[str, ...]:
    """Every key a card-value table of ``deck`` must have."""
    keys = []
    for rank in Rank:
        if rank.deck is not deck or rank is Rank.LADY:
            continue
        keys.append("3B" if rank is Rank.THREE else rank.token)
    return tuple(keys)


_RATIO = re.compile(r"^([1-9][0-9]?):1$")


@dataclass(frozen=True)
class RuleSet:
    """One way to play and score Hand and Foot. Build it with keywords; it validates itself.

    ``wild_ratio`` is ``"N:1"`` (a meld needs at least N natural cards per wild card) or
    ``"more"`` (strictly more naturals than wilds).
    """

    name: str
    description: str
    deck: Deck
    play: PlayStyle
    hand_size: int
    foot_size: int
    card_values: Mapping[str, int]
    meld_min: int
    book_size: int
    meld_max: int | None
    wild_ratio: str
    wild_max: int | None
    wild_melds: bool
    black_three_melds: bool
    clean_bonus: int
    dirty_bonus: int
    wild_bonus: int
    black_three_bonus: int
    go_out: tuple[BookRequirement, ...]
    going_out_bonus: int
    red_threes: RedThrees
    red_three_points: int
    exact_22_bonus: int
    lady_bonus: int
    lady_penalty: int
    initial_minimums: tuple[int, ...]
    concealed_first_meld_deals: tuple[int, ...]
    melds_per_rank: MeldsPerRank
    deals: int = 4

    def __post_init__(self) -> None:
        object.__setattr__(self, "card_values", MappingProxyType(dict(self.card_values)))
        _validate(self)

    # -- what the rest of the engine asks ------------------------------------------------------

    def value_of(self, card: Card) -> int:
        """The card's points (positive), as counted for a melded card or against a leftover."""
        key = value_key(card)
        return 0 if key is None else self.card_values[key]

    def check_deck(self, cards: Iterable[Card]) -> None:
        """Refuse a card of the other deck (the notation already does, for parsed tokens)."""
        for card in cards:
            if card.deck is not self.deck:
                raise UnknownCardError(card.code, self.deck.title, f"{self.name} plays it")

    def max_wilds(self, size: int) -> int:
        """How many wild cards a meld of ``size`` cards may hold."""
        if self.wild_ratio == "more":
            allowed = (size - 1) // 2
        else:
            allowed = size // (int(self.wild_ratio.split(":")[0]) + 1)
        return allowed if self.wild_max is None else min(allowed, self.wild_max)

    def minimum_for(self, deal: int) -> int:
        return self.initial_minimums[self.check_deal(deal) - 1]

    def go_out_for(self, deal: int) -> BookRequirement:
        return self.go_out[self.check_deal(deal) - 1]

    def check_deal(self, deal: int) -> int:
        if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= self.deals:
            raise RulesError(
                f"deal {deal!r} does not exist: {self.name} plays deals 1 to {self.deals}"
            )
        return deal

    @classmethod
    def parameter_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


def _validate(rules: RuleSet) -> None:
    def fail(key: str, message: str) -> None:
        raise RulesError(message, key=key)

    for name in ("hand_size", "foot_size", "meld_min", "book_size", "deals"):
        value = getattr(rules, name)
        if not 1 <= value <= 100:
            fail(name, f"must be between 1 and 100 (it is {value})")
    if rules.meld_min < 2:
        fail("meld_min", f"a meld has at least 2 cards (it is {rules.meld_min})")
    if rules.book_size < rules.meld_min:
        fail("book_size", f"must be at least meld_min ({rules.meld_min}), it is {rules.book_size}")
    if rules.meld_max is not None and rules.meld_max < rules.book_size:
        fail("meld_max", f"must be at least book_size ({rules.book_size}), it is {rules.meld_max}")
    if rules.wild_ratio != "more" and not _RATIO.match(rules.wild_ratio):
        fail("wild_ratio", f'must be "N:1" such as "2:1", or "more" (it is {rules.wild_ratio!r})')
    if rules.wild_max is not None and rules.wild_max < 0:
        fail("wild_max", f"cannot be negative (it is {rules.wild_max})")
    for name in (
        "clean_bonus",
        "dirty_bonus",
        "wild_bonus",
        "black_three_bonus",
        "going_out_bonus",
        "red_three_points",
        "exact_22_bonus",
        "lady_bonus",
        "lady_penalty",
    ):
        value = getattr(rules, name)
        if not 0 <= value <= 100_000:
            fail(name, f"must be between 0 and 100000 points (it is {value})")
    _validate_card_values(rules)
    _validate_per_deal(rules)
    if rules.deck is Deck.SPECIAL and rules.red_threes is not RedThrees.NONE:
        fail("red_threes", 'the special deck has no red threes: use "none"')
    if rules.deck is Deck.SPECIAL and rules.black_three_melds:
        fail("black_three_melds", "the special deck has no black threes")


def _validate_card_values(rules: RuleSet) -> None:
    expected = set(value_keys(rules.deck))
    given = set(rules.card_values)
    for key in sorted(given - expected):
        raise RulesError(
            f"{key!r} is not a card of the {rules.deck.title} "
            f"(keys: {', '.join(value_keys(rules.deck))})",
            key="card_values",
        )
    for key in value_keys(rules.deck):
        if key not in given:
            raise RulesError(f"the value of {key} is missing", key="card_values")
        value = rules.card_values[key]
        if not 0 <= value <= 10_000:
            raise RulesError(
                f"{key} must be worth 0 to 10000 points (it is {value})", key="card_values"
            )


def _validate_per_deal(rules: RuleSet) -> None:
    for name in ("go_out", "initial_minimums"):
        values = getattr(rules, name)
        if len(values) != rules.deals:
            raise RulesError(
                f"needs one entry per deal: {rules.deals} deals, {len(values)} entries", key=name
            )
    for minimum in rules.initial_minimums:
        if not 0 <= minimum <= 100_000:
            raise RulesError(
                f"must be 0 to 100000 points (one is {minimum})", key="initial_minimums"
            )
    for requirement in rules.go_out:
        counts = (requirement.clean, requirement.dirty, requirement.wild, requirement.any)
        if any(not 0 <= n <= 50 for n in counts):
            raise RulesError("book counts must be between 0 and 50", key="go_out")
        if requirement.wild and not rules.wild_melds:
            raise RulesError("asks for wild books but wild_melds is false", key="go_out")
    for deal in rules.concealed_first_meld_deals:
        if not 1 <= deal <= rules.deals:
            raise RulesError(
                f"deal {deal} does not exist (deals 1 to {rules.deals})",
                key="concealed_first_meld_deals",
            )

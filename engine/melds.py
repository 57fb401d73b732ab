"""Is one meld legal, what kind is it and what is it worth (RULES.md §4).

>>> from engine.presets import get_preset
>>> check = check_meld(parse_cards("8R 8B 2R JK"), get_preset("pagat"))
>>> check.legal
False
>>> [p.message for p in check.problems]
['a dirty meld of 4 cards may hold only 1 wild card (this one has 2)']
>>> check_meld(parse_cards("KR KB KR KB KR KB KR"), get_preset("pagat")).points
570
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from engine.cards import Card, Rank, parse_cards
from engine.problems import Code, Listed, Phrase, Problem
from engine.rules import RuleSet

__all__ = ["MeldCheck", "MeldKind", "check_meld", "parse_cards"]


class MeldKind(Enum):
    CLEAN = "clean"
    DIRTY = "dirty"
    WILD = "wild"
    BLACK_THREES = "black-three"

    @property
    def counts_as_clean(self) -> bool:
        """A black-three book is a clean book for going out (it has no wild card)."""
        return self in (MeldKind.CLEAN, MeldKind.BLACK_THREES)


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """Everything the engine knows about one meld as laid.

    ``size`` counts the cards that make the meld (a Lady on top of a group is a cap, not a
    card of the group). ``card_points`` is signed: melded black threes count against.
    """

    cards: tuple[Card, ...]
    rank: Rank | None
    kind: MeldKind
    size: int
    wild_count: int
    complete: bool
    card_points: int
    book_bonus: int
    lady_bonus: int
    problems: tuple[Problem, ...]

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def points(self) -> int:
        """Card points plus the bonuses the meld earns as it lies."""
        return self.card_points + self.book_bonus + self.lady_bonus

    @property
    def label(self) -> str:
        """``clean book``, ``dirty meld``, ``wild book``, ``black-three book``…"""
        return f"{self.kind.value} {'book' if self.complete else 'meld'}"

    def to_dict(self) -> dict[str, object]:
        return {
            "cards": [card.code for card in self.cards],
            "kind": self.label,
            "complete": self.complete,
            "legal": self.legal,
            "problems": [problem.to_dict() for problem in self.problems],
            "card_points": self.card_points,
            "book_bonus": self.book_bonus,
            "lady_bonus": self.lady_bonus,
            "bonus": self.book_bonus + self.lady_bonus,
            "points": self.points,
        }


def check_meld(cards: Iterable[Card], rules: RuleSet) -> MeldCheck:
    """Check one meld on its own (RULES.md §4 checks 1–4) and work out what it is worth.

    Every problem is reported, not just the first; card order never matters.
    """
    cards = tuple(cards)
    rules.check_deck(cards)
    ladies = [card for card in cards if card.rank is Rank.LADY]
    body = [card for card in cards if card.rank is not Rank.LADY]
    wilds = [card for card in body if card.is_wild]
    naturals = [card for card in body if not card.is_wild]
    kind = _kind(naturals, wilds, rules)
    size = len(body)
    problems = [
        *_natural_problems(naturals, wilds, kind, rules),
        *_size_problems(size, rules, ladies=len(ladies)),
        *_wild_problems(kind, size, len(wilds), rules),
    ]
    complete = size >= rules.book_size
    problems += _lady_problems(ladies, kind, complete, not problems)
    card_points = sum(rules.value_of(card) for card in body)
    if kind is MeldKind.BLACK_THREES:
        card_points = -card_points
    legal = not problems
    return MeldCheck(
        cards=cards,
        rank=naturals[0].rank if naturals else None,
        kind=kind,
        size=size,
        wild_count=len(wilds),
        complete=complete,
        card_points=card_points,
        book_bonus=_book_bonus(kind, rules) if complete and legal else 0,
        lady_bonus=rules.lady_bonus * len(ladies) if legal else 0,
        problems=tuple(problems),
    )


def _kind(naturals: list[Card], wilds: list[Card], rules: RuleSet) -> MeldKind:
    if naturals and rules.black_three_melds and all(card.is_black_three for card in naturals):
        return MeldKind.BLACK_THREES
    if wilds and not naturals:
        return MeldKind.WILD
    return MeldKind.DIRTY if wilds else MeldKind.CLEAN


def _book_bonus(kind: MeldKind, rules: RuleSet) -> int:
    return {
        MeldKind.CLEAN: rules.clean_bonus,
        MeldKind.DIRTY: rules.dirty_bonus,
        MeldKind.WILD: rules.wild_bonus,
        MeldKind.BLACK_THREES: rules.black_three_bonus,
    }[kind]


def _natural_problems(
    naturals: list[Card], wilds: list[Card], kind: MeldKind, rules: RuleSet
) -> list[Problem]:
    problems = []
    if kind is MeldKind.BLACK_THREES:
        if wilds:
            problems.append(Problem.of(Code.WILD_IN_BLACK_THREES, "wild_in_black_threes"))
        return problems
    red_threes = sum(card.is_red_three for card in naturals)
    black_threes = sum(card.is_black_three for card in naturals)
    if red_threes:
        problems.append(Problem.of(Code.THREE_IN_MELD, "red_three_in_meld"))
    if black_threes and not rules.black_three_melds:
        problems.append(Problem.of(Code.THREE_IN_MELD, "black_threes_never"))
    elif black_threes and len(naturals) > black_threes + red_threes:
        problems.append(Problem.of(Code.THREE_IN_MELD, "black_threes_only"))
    villains = sum(card.rank is Rank.VILLAIN for card in naturals)
    if villains:
        problems.append(Problem.of(Code.NOT_MELDABLE, "villain"))
    # Threes and Villains are reported above; counting them as a second rank would say it twice.
    ranks = Counter(card.rank for card in naturals if card.rank.is_meldable_natural)
    if len(ranks) > 1:
        names = Listed.of(rank_phrase(rank) for rank, _ in ranks.most_common())
        problems.append(Problem.of(Code.MIXED_RANKS, "mixed_ranks", ranks=names))
    return problems


def _size_problems(size: int, rules: RuleSet, *, ladies: int = 0) -> list[Problem]:
    if size < rules.meld_min:
        # A Lady is the cap of a group, not one of its cards: say so, or "LADY LADY 12"
        # reads as three cards counted as one.
        if ladies:
            capped = (
                Phrase.of("ladies_one") if ladies == 1 else Phrase.of("ladies_many", count=ladies)
            )
            return [
                Problem.of(
                    Code.TOO_FEW_CARDS,
                    "too_few_cards_lady",
                    minimum=rules.meld_min,
                    size=size,
                    ladies=capped,
                )
            ]
        return [Problem.of(Code.TOO_FEW_CARDS, "too_few_cards", minimum=rules.meld_min, size=size)]
    if rules.meld_max is not None and size > rules.meld_max:
        return [
            Problem.of(Code.TOO_MANY_CARDS, "too_many_cards", maximum=rules.meld_max, size=size)
        ]
    return []


def _wild_problems(kind: MeldKind, size: int, wilds: int, rules: RuleSet) -> list[Problem]:
    if kind is MeldKind.WILD:
        if rules.wild_melds:
            return []
        return [Problem.of(Code.WILD_MELD_NOT_ALLOWED, "wild_meld_not_allowed", rules=rules.name)]
    allowed = rules.max_wilds(size)
    if kind is not MeldKind.DIRTY or wilds <= allowed:
        return []
    if allowed == 0:
        limit = Phrase.of("wilds_none")
    else:
        limit = Phrase.of("wilds_one") if allowed == 1 else Phrase.of("wilds_many", count=allowed)
    return [Problem.of(Code.TOO_MANY_WILDS, "too_many_wilds", size=size, limit=limit, wilds=wilds)]


def _lady_problems(
    ladies: list[Card], kind: MeldKind, complete: bool, group_legal: bool
) -> list[Problem]:
    if not ladies:
        return []
    if len(ladies) > 1:
        return [Problem.of(Code.LADY_CAP, "lady_cap_many", ladies=len(ladies))]
    if kind is not MeldKind.CLEAN or not complete or not group_legal:
        return [Problem.of(Code.LADY_CAP, "lady_cap")]
    return []


def rank_phrase(rank: Rank) -> Phrase:
    """A rank's plural as a part of a problem's sentence ("kings", "1s", "Lords")."""
    if rank.name.startswith("N") and rank.name[1:].isdigit():
        return Phrase.of("ranks_number", number=rank.token)
    return Phrase.of(f"ranks_{rank.name.lower()}")

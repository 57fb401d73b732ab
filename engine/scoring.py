"""Scoring one deal (RULES.md §2): every side's breakdown, and what makes a deal impossible.

>>> from engine.cards import parse_cards
>>> from engine.presets import get_preset
>>> side = Side(
...     name="North-South",
...     melds=(parse_cards("KR KB KR KB KR KB KR"), parse_cards("9R 9B 2B")),
...     red_threes=parse_cards("3R"),
...     hand=parse_cards("5B JK"),
... )
>>> result = score_deal(Deal(get_preset("pagat"), 1, (side,)))
>>> result.sides[0].total  # 570 + 40 + 100 - 55
655
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card, Rank
from engine.context import check_side_melds
from engine.melds import MeldCheck, MeldKind, check_meld
from engine.problems import Code, Listed, Phrase, Problem
from engine.rules import BookRequirement, RedThrees, RuleSet


@dataclass(frozen=True)
class Side:
    """What one team (or one player in an individual game) has at the end of a deal."""

    name: str
    melds: tuple[tuple[Card, ...], ...] = ()
    red_threes: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    foot: tuple[Card, ...] = ()
    went_out: bool = False
    picked_22: bool = False


@dataclass(frozen=True)
class Deal:
    rules: RuleSet
    number: int
    sides: tuple[Side, ...]


# Each line of a breakdown in a player's words (the score table, the page).
LINE_TITLES = {
    "melded_points": "Melded cards",
    "book_bonuses": "Book bonuses",
    "red_threes": "Red threes",
    "going_out": "Going out",
    "exact_22": "Exactly 22 picked up",
    "lady_bonuses": "Ladies on clean groups",
    "lady_penalties": "Ladies left over",
    "hand": "Left in hand",
    "foot": "Untaken foot",
}


@dataclass(frozen=True)
class Breakdown:
    """Every line of a side's deal score; the lines add up to :attr:`total`.

    Leftover lines (``hand``, ``foot``) and penalties are negative numbers.
    """

    melds: tuple[MeldCheck, ...]
    melded_points: int
    book_bonuses: int
    red_threes: int
    going_out: int
    exact_22: int
    lady_bonuses: int
    lady_penalties: int
    hand: int
    foot: int

    LINES = (
        "melded_points",
        "book_bonuses",
        "red_threes",
        "going_out",
        "exact_22",
        "lady_bonuses",
        "lady_penalties",
        "hand",
        "foot",
    )

    @property
    def total(self) -> int:
        return sum(getattr(self, line) for line in self.LINES)

    def to_dict(self) -> dict[str, object]:
        return {"melds": [meld.to_dict() for meld in self.melds]} | {
            line: getattr(self, line) for line in self.LINES
        }


@dataclass(frozen=True)
class SideScore:
    name: str
    breakdown: Breakdown
    books: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.breakdown.total


@dataclass(frozen=True)
class DealResult:
    deal: Deal
    sides: tuple[SideScore, ...]
    problems: tuple[Problem, ...]

    @property
    def possible(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, object]:
        """The deal scored, as ``handfoot score --json`` prints it and the game record keeps it."""
        return {
            "rules": self.deal.rules.name,
            "deal": self.deal.number,
            "possible": self.possible,
            "teams": [
                {
                    "name": side.name,
                    "total": side.total,
                    "breakdown": side.breakdown.to_dict(),
                    "books": side.books,
                }
                for side in self.sides
            ],
            "problems": [problem.to_dict() for problem in self.problems],
        }


def score_deal(deal: Deal) -> DealResult:
    """Score every side. A deal that cannot have happened still gets its breakdowns, and its
    problems say why it is impossible; callers must not record it."""
    rules = deal.rules
    rules.check_deal(deal.number)
    scores, problems = [], []
    for side in deal.sides:
        rules.check_deck(side.red_threes + side.hand + side.foot)
        melds = tuple(check_meld(cards, rules) for cards in side.melds)
        scores.append(SideScore(side.name, _breakdown(side, melds, rules), _book_counts(melds)))
        for number, meld in enumerate(melds, start=1):
            problems += [p.at(side=side.name, meld=number) for p in meld.problems]
        problems += [p.at(side=side.name) for p in check_side_melds(melds, rules)]
        problems += _side_problems(side, melds, rules, deal.number)
    problems += _deal_problems(deal)
    return DealResult(deal, tuple(scores), tuple(problems))


def _breakdown(side: Side, melds: tuple[MeldCheck, ...], rules: RuleSet) -> Breakdown:
    leftovers = side.hand + side.foot
    return Breakdown(
        melds=melds,
        melded_points=sum(meld.card_points for meld in melds),
        book_bonuses=sum(meld.book_bonus for meld in melds),
        red_threes=_red_three_score(side, rules),
        going_out=rules.going_out_bonus if side.went_out else 0,
        exact_22=rules.exact_22_bonus if side.picked_22 else 0,
        lady_bonuses=sum(meld.lady_bonus for meld in melds),
        lady_penalties=-rules.lady_penalty * sum(c.rank is Rank.LADY for c in leftovers),
        hand=-sum(rules.value_of(card) for card in side.hand),
        foot=-sum(rules.value_of(card) for card in side.foot),
    )


def _red_three_score(side: Side, rules: RuleSet) -> int:
    laid = sum(card.is_red_three for card in side.red_threes)
    held = sum(card.is_red_three for card in side.hand + side.foot)
    if rules.red_threes is RedThrees.BONUS:
        return rules.red_three_points * (laid - held)
    if rules.red_threes is RedThrees.PENALTY:
        return -rules.red_three_points * (laid + held)
    return 0


def _book_counts(melds: tuple[MeldCheck, ...]) -> dict[str, int]:
    books = [meld for meld in melds if meld.complete and meld.legal]
    return {
        "clean": sum(meld.kind.counts_as_clean for meld in books),
        "dirty": sum(meld.kind is MeldKind.DIRTY for meld in books),
        "wild": sum(meld.kind is MeldKind.WILD for meld in books),
        "all": len(books),
    }


def meets(requirement: BookRequirement, books: dict[str, int]) -> bool:
    return (
        books["clean"] >= requirement.clean
        and books["dirty"] >= requirement.dirty
        and books["wild"] >= requirement.wild
        and books["all"] >= requirement.total
    )


def _side_problems(
    side: Side, melds: tuple[MeldCheck, ...], rules: RuleSet, deal: int
) -> list[Problem]:
    problems = [
        Problem.of(Code.NOT_A_RED_THREE, "not_a_red_three", card=card.code).at(side=side.name)
        for card in side.red_threes
        if not card.is_red_three
    ]
    if not side.went_out:
        return problems
    requirement = rules.go_out_for(deal)
    books = _book_counts(melds)
    if not meets(requirement, books):
        counts = {kind: books[kind] for kind in ("clean", "dirty")}
        has = Phrase.of("has_books", **counts)
        if rules.wild_melds:
            has = Phrase.of("has_books_wild", **counts, wild=books["wild"])
        problems.append(
            Problem.of(
                Code.WENT_OUT_WITHOUT_BOOKS,
                "went_out_without_books",
                side=side.name,
                deal=deal,
                requirement=requirement.phrase(),
                has=has,
            ).at(side=side.name)
        )
    if side.foot:
        problems.append(
            Problem.of(Code.WENT_OUT_WITH_FOOT, "went_out_with_foot", side=side.name).at(
                side=side.name
            )
        )
    return problems


def _deal_problems(deal: Deal) -> list[Problem]:
    out = [side.name for side in deal.sides if side.went_out]
    if len(out) <= 1:
        return []
    return [Problem.of(Code.SEVERAL_WENT_OUT, "several_went_out", sides=Listed.of(out))]

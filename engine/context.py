"""Checks that need more than one meld: the side's other melds, and the first meld of a deal.

>>> from engine.cards import parse_cards
>>> from engine.melds import check_meld
>>> from engine.presets import get_preset
>>> pagat = get_preset("pagat")
>>> melds = [check_meld(parse_cards(t), pagat) for t in ("9R 9B 9R", "9B 9B 2R")]
>>> [p.code.value for p in check_side_melds(melds, pagat)]
['second-incomplete-meld']
>>> check_initial(melds[:1], pagat, deal=1)[0].message
'the first meld of deal 1 needs at least 50 points (these cards make 30)'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from engine.cards import Rank
from engine.melds import MeldCheck, MeldKind, rank_phrase
from engine.problems import Code, Phrase, Problem
from engine.rules import MeldsPerRank, RuleSet


def _rank_key(meld: MeldCheck) -> Rank | MeldKind | None:
    # Wild melds have no rank; they share one slot so a side keeps one incomplete wild meld too.
    return meld.kind if meld.kind is MeldKind.WILD else meld.rank


def _rank_name(meld: MeldCheck) -> Phrase:
    if meld.kind is MeldKind.WILD:
        return Phrase.of("ranks_wild")
    return rank_phrase(meld.rank) if meld.rank else Phrase.of("ranks_cards")


def check_side_melds(melds: Sequence[MeldCheck], rules: RuleSet) -> list[Problem]:
    """The table-wide rule of RULES.md §4.5: one incomplete meld per rank per side (or one meld
    per rank at all). Problems point at the offending meld (1-based)."""
    seen: dict[object, list[int]] = defaultdict(list)
    problems = []
    for number, meld in enumerate(melds, start=1):
        key = _rank_key(meld)
        if key is None:
            continue
        one_only = rules.melds_per_rank is MeldsPerRank.ONE
        earlier = [i for i in seen[key] if one_only or not melds[i - 1].complete]
        if earlier and (one_only or not meld.complete):
            problems.append(_duplicate(meld, rules, one_only, earlier[0]).at(meld=number))
        seen[key].append(number)
    return problems


def _duplicate(meld: MeldCheck, rules: RuleSet, one_only: bool, first: int) -> Problem:
    name = _rank_name(meld)
    if one_only:
        return Problem.of(
            Code.SECOND_MELD, "second_meld", ranks=name, rules=rules.name, first=first
        )
    return Problem.of(
        Code.SECOND_INCOMPLETE_MELD, "second_incomplete_meld", ranks=name, first=first
    )


def check_initial(
    melds: Sequence[MeldCheck], rules: RuleSet, deal: int, *, concealed: bool = False
) -> list[Problem]:
    """Do the melds a side lays together as its first of deal ``deal`` open it? Card points
    only: red threes and book bonuses never count (RULES.md §1). Where the rule set asks for a
    concealed canasta instead, ``concealed`` says the melds came from the hand at once."""
    rules.check_deal(deal)
    if deal in rules.concealed_first_meld_deals:
        if concealed and any(meld.complete for meld in melds):
            return []
        return [
            Problem.of(Code.CONCEALED_CANASTA, "concealed_canasta", deal=deal, size=rules.book_size)
        ]
    minimum = rules.minimum_for(deal)
    points = sum(meld.card_points for meld in melds)
    if points >= minimum:
        return []
    return [
        Problem.of(
            Code.INITIAL_MINIMUM, "initial_minimum", deal=deal, minimum=minimum, points=points
        )
    ]

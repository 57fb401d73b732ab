"""The eight rule sets of RULES.md §3, shipped with the project.

>>> get_preset("pagat").go_out_for(1).describe()
'2 clean + 2 dirty + 1 wild'
>>> get_preset("brouillette:low").clean_bonus
300
"""

from __future__ import annotations

from dataclasses import replace

from engine.cards import Deck
from engine.errors import RulesError
from engine.rules import BookRequirement, MeldsPerRank, PlayStyle, RedThrees, RuleSet

STANDARD_VALUES = {
    "JK": 50,
    "2": 20,
    "A": 20,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
    "3B": 5,
}
# RULES.md §5: the numbered cards' points are documented nowhere; 1–6 and 7–12 mirror 4–7 and 8–K.
SPECIAL_VALUES = {str(n): 5 if n <= 6 else 10 for n in range(1, 13)} | {
    "LORD": 20,
    "JESTER": 25,
    "JOKER": 50,
    "VILLAIN": 0,
}
DEFAULT_VALUES = {Deck.STANDARD: STANDARD_VALUES, Deck.SPECIAL: SPECIAL_VALUES}
MINIMUMS = (50, 90, 120, 150)


def _every_deal(requirement: BookRequirement) -> tuple[BookRequirement, ...]:
    return (requirement,) * 4


PAGAT = RuleSet(
    name="pagat",
    description="The common partnership game (pagat.com, Whitnack): 13+13, books of 7, "
    "out with 2 clean + 2 dirty + 1 wild book",
    deck=Deck.STANDARD,
    play=PlayStyle.PARTNERSHIP,
    hand_size=13,
    foot_size=13,
    card_values=STANDARD_VALUES,
    meld_min=3,
    book_size=7,
    meld_max=7,
    wild_ratio="2:1",
    wild_max=None,
    wild_melds=True,
    black_three_melds=False,
    clean_bonus=500,
    dirty_bonus=300,
    wild_bonus=1500,
    black_three_bonus=0,
    go_out=_every_deal(BookRequirement(clean=2, dirty=2, wild=1)),
    going_out_bonus=100,
    red_threes=RedThrees.BONUS,
    red_three_points=100,
    exact_22_bonus=0,
    lady_bonus=0,
    lady_penalty=0,
    initial_minimums=MINIMUMS,
    concealed_first_meld_deals=(),
    melds_per_rank=MeldsPerRank.ONE_INCOMPLETE,
)

CLASSIC = replace(
    PAGAT,
    name="classic",
    description="The Swedish page's partnership game: 13+13, at most 2 wild cards, no wild "
    "books, out with 2 clean + 2 dirty books",
    play=PlayStyle.EITHER,
    wild_max=2,
    wild_melds=False,
    wild_bonus=0,
    go_out=_every_deal(BookRequirement(clean=2, dirty=2)),
)

FAMILY = replace(
    PAGAT,
    name="family",
    description="The Danish score-sheet game: 11+11, at most 2 wild cards, out with "
    "1 clean + 1 dirty book",
    play=PlayStyle.EITHER,
    hand_size=11,
    foot_size=11,
    wild_max=2,
    go_out=_every_deal(BookRequirement(clean=1, dirty=1)),
)

SASKATCHEWAN = replace(
    PAGAT,
    name="saskatchewan",
    description="Dave Petrie's partnership game: 11+13, canastas of 7 or more that may grow, "
    "more naturals than wilds, a concealed canasta to open deal 4",
    foot_size=13,
    hand_size=11,
    meld_max=None,
    wild_ratio="more",
    go_out=_every_deal(BookRequirement(clean=1, dirty=1, wild=1)),
    concealed_first_meld_deals=(4,),
)

SIMPSON = replace(
    PAGAT,
    name="simpson",
    description="Steve Simpson's individual game: 11+11, piles of 7 or more, red threes "
    "always -500, +100 for picking up exactly 22",
    play=PlayStyle.INDIVIDUAL,
    hand_size=11,
    foot_size=11,
    meld_max=None,
    wild_ratio="more",
    wild_melds=False,
    clean_bonus=300,
    dirty_bonus=100,
    wild_bonus=0,
    go_out=_every_deal(BookRequirement(clean=1, dirty=1)),
    red_threes=RedThrees.PENALTY,
    red_three_points=500,
    exact_22_bonus=100,
    melds_per_rank=MeldsPerRank.ONE,
)

BROUILLETTE = replace(
    SIMPSON,
    name="brouillette",
    description="Brian Brouillette's individual game: Simpson's with 500/300 books, "
    "black-three books, 2 clean + 2 dirty to go out in deal 4 (option low: 300/100)",
    clean_bonus=500,
    dirty_bonus=300,
    black_three_melds=True,
    black_three_bonus=300,
    go_out=(BookRequirement(clean=1, dirty=1),) * 3 + (BookRequirement(clean=2, dirty=2),),
)

BROUILLETTE_PARTNERS = replace(
    BROUILLETTE,
    name="brouillette-partners",
    description="Brouillette's partnership version: out with 2 clean + 2 dirty books, "
    "4 clean + 4 dirty in deal 4 (option low: 300/100)",
    play=PlayStyle.PARTNERSHIP,
    go_out=(BookRequirement(clean=2, dirty=2),) * 3 + (BookRequirement(clean=4, dirty=4),),
)

HANDNFOOT = replace(
    PAGAT,
    name="handnfoot",
    description="The special Hand 'N Foot deck (1-12, Lords, Ladies, Villains, Jesters): "
    "groups of 7 or more, wild group 2000, out with 3 groups",
    deck=Deck.SPECIAL,
    play=PlayStyle.EITHER,
    hand_size=11,
    foot_size=11,
    card_values=SPECIAL_VALUES,
    meld_max=None,
    wild_ratio="more",
    wild_bonus=2000,
    go_out=_every_deal(BookRequirement(any=3)),
    red_threes=RedThrees.NONE,
    red_three_points=0,
    exact_22_bonus=100,
    lady_bonus=100,
    lady_penalty=500,
)

PRESETS: dict[str, RuleSet] = {
    rules.name: rules
    for rules in (
        PAGAT,
        CLASSIC,
        FAMILY,
        SASKATCHEWAN,
        SIMPSON,
        BROUILLETTE,
        BROUILLETTE_PARTNERS,
        HANDNFOOT,
    )
}


def _low(rules: RuleSet) -> RuleSet:
    return replace(
        rules, name=f"{rules.name}:low", clean_bonus=300, dirty_bonus=100, black_three_bonus=100
    )


# Options a preset offers, written NAME:OPTION.
OPTIONS = {"brouillette": {"low": _low}, "brouillette-partners": {"low": _low}}


def get_preset(spec: str) -> RuleSet:
    """A preset by name, with an option after a colon (``brouillette:low``)."""
    name, _, option = spec.strip().lower().partition(":")
    if name.endswith("-low") and name.removesuffix("-low") in OPTIONS and not option:
        name, option = name.removesuffix("-low"), "low"
    rules = PRESETS.get(name)
    if rules is None:
        raise RulesError(f"unknown rules {spec!r}: the presets are {', '.join(PRESETS)}")
    if not option:
        return rules
    offered = OPTIONS.get(name, {})
    if option not in offered:
        choices = ", ".join(f"{name}:{o}" for o in offered) or "none"
        raise RulesError(f"{name} has no option {option!r} (options: {choices})")
    return offered[option](rules)

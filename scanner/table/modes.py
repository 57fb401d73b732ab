"""The three scan modes: what the cards on the table mean under a rule set (pure functions).

- ``meld``: the meld (or melds) a player is about to lay: legal or not, with every reason;
  with ``initial``, whether the melds laid together open the deal.
- ``table``: a side's whole table at the end of a deal: melds and books with their kinds,
  red threes, melded points and bonuses.
- ``leftovers``: the cards left in a hand or an untaken foot, and what they cost.

The engine decides everything; this module only turns readings into the engine's cards and
says which readings it could not use (``unplaced``), each with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

import cv2
import numpy as np

from engine import (
    Card,
    Deal,
    MeldCheck,
    Problem,
    RuleSet,
    Side,
    UnknownCardError,
    check_initial,
    check_meld,
    score_deal,
)
from scanner.table.spacing import fan_doubt, top_doubt
from scanner.vision.cards import CardReading
from scanner.vision.grouping import Grouping, group_cards


class Mode(Enum):
    MELD = "meld"
    TABLE = "table"
    LEFTOVERS = "leftovers"


LONE_CARD = (
    "a card lying on its own: spread a squared-up book so every card shows, or lay the card "
    "on its meld"
)
STRAY = (
    "an unsure mark far from every card: most likely the tablecloth's pattern; not counted "
    "(if it is a card, add it)"
)
OTHER_DECK = "read as {code}, a card of the {deck}; these rules play the {playing}"


@dataclass(frozen=True)
class Unplaced:
    """A card the camera saw but that counts nowhere, and why."""

    card: CardReading
    reason: str

    def as_json(self) -> dict:
        return {**self.card.as_json(), "reason": self.reason}


@dataclass(frozen=True)
class ScannedMeld:
    """One group of cards on the table and the engine's verdict on it."""

    cards: tuple[CardReading, ...]
    verdict: MeldCheck
    outline: tuple[tuple[float, float], ...]
    doubt: str | None = None  # why the meld itself needs counting by a person

    @property
    def check_cards(self) -> tuple[CardReading, ...]:
        return tuple(card for card in self.cards if card.check)

    def as_json(self) -> dict:
        verdict = self.verdict.to_dict()
        return {
            "cards": verdict["cards"],
            "kind": verdict["kind"],
            "legal": verdict["legal"],
            "problems": verdict["problems"],
            "points": verdict["points"],
            "card_points": verdict["card_points"],
            "bonus": verdict["bonus"],
            "check": [n for n, card in enumerate(self.cards) if card.check],
            "doubt": self.doubt,
            "outline": [[round(x, 1), round(y, 1)] for x, y in self.outline],
        }


@dataclass(frozen=True)
class TableResult:
    """What one scan means: the melds, red threes and leftovers the engine counted, the cards
    it could not use, the totals for the mode and the problems that concern the whole table."""

    mode: Mode
    rules: RuleSet
    deal: int
    melds: tuple[ScannedMeld, ...] = ()
    red_threes: tuple[CardReading, ...] = ()
    leftovers: tuple[CardReading, ...] = ()
    unplaced: tuple[Unplaced, ...] = ()
    totals: dict[str, int | bool] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    strays: tuple[Unplaced, ...] = ()  # shown, neither counted nor asked about (grouping.py)

    @property
    def cards(self) -> tuple[CardReading, ...]:
        melded = tuple(card for meld in self.melds for card in meld.cards)
        return melded + self.red_threes + self.leftovers + tuple(u.card for u in self.unplaced)

    @property
    def legal(self) -> bool:
        return not self.problems and all(meld.verdict.legal for meld in self.melds)

    @property
    def needs_check(self) -> bool:
        """Whether a person should look before the result counts: an unsure card, a card that
        could not be placed, a meld whose layout looks wrong, or, on a side's table, an illegal
        meld (melds were legal when laid, so one that is not was most likely misread; in meld
        mode an illegal meld is an answer, not a doubt)."""
        doubts = any(meld.doubt for meld in self.melds)
        misread = self.mode is Mode.TABLE and any(not meld.verdict.legal for meld in self.melds)
        return bool(self.unplaced) or doubts or misread or any(card.check for card in self.cards)

    def as_json(self) -> dict:
        return {
            "mode": self.mode.value,
            "rules": self.rules.name,
            "deal": self.deal,
            "melds": [meld.as_json() for meld in self.melds],
            "red_threes": [card.code for card in self.red_threes],
            "leftovers": [card.code for card in self.leftovers],
            "unplaced": [item.as_json() for item in self.unplaced],
            "strays": [item.as_json() for item in self.strays],
            "totals": dict(self.totals),
            "problems": [problem.to_dict() for problem in self.problems],
            "legal": self.legal,
            "check": self.needs_check,
        }


def interpret(
    mode: Mode,
    cards: Sequence[CardReading],
    rules: RuleSet,
    *,
    deal: int = 1,
    initial: bool = False,
) -> TableResult:
    """The engine's view of ``cards`` (one frame's, or the vote over several) in ``mode``."""
    rules.check_deal(deal)
    if mode is Mode.LEFTOVERS:
        return read_leftovers(cards, rules, deal=deal)
    if mode is Mode.MELD:
        return read_melds(cards, rules, deal=deal, initial=initial)
    return read_table(cards, rules, deal=deal)


def engine_card(reading: CardReading, rules: RuleSet) -> Card | Unplaced:
    """The engine's card for a reading, or why it cannot be one under ``rules``."""
    try:
        card = Card.from_code(reading.code, rules.deck)
    except UnknownCardError:
        other = "special Hand 'N Foot deck" if rules.deck.name == "STANDARD" else "standard deck"
        reason = OTHER_DECK.format(code=reading.code, deck=other, playing=rules.deck.title)
        return Unplaced(reading, reason)
    return card


def _usable(
    readings: Sequence[CardReading], rules: RuleSet, unplaced: list[Unplaced]
) -> list[tuple[CardReading, Card]]:
    usable = []
    for reading in readings:
        card = engine_card(reading, rules)
        if isinstance(card, Unplaced):
            unplaced.append(card)
        else:
            usable.append((reading, card))
    return usable


def _meld(
    group: Sequence[CardReading], hull, rules: RuleSet, unplaced, doubt: str | None = None
) -> ScannedMeld | None:
    usable = _usable(group, rules, unplaced)
    if not usable:
        return None
    readings = tuple(reading for reading, _ in usable)
    verdict = check_meld((card for _, card in usable), rules)
    why = fan_doubt(group) or doubt or top_doubt(group)
    return ScannedMeld(readings, verdict, tuple(hull), why)


def outline(cards: Sequence[CardReading]) -> tuple[tuple[float, float], ...]:
    """The convex hull of the cards' outlines."""
    points = np.array([point for card in cards for point in card.polygon], np.float32)
    hull = cv2.convexHull(points).reshape(-1, 2)
    return tuple((float(x), float(y)) for x, y in hull)


def table_totals(
    melds: Sequence[MeldCheck], red_threes: Sequence[Card], rules: RuleSet, deal: int
) -> tuple[dict[str, int | bool], tuple[Problem, ...]]:
    """A side's table as the engine scores it: melded points, bonuses, red threes and books,
    and the problems of the table as a whole (a second incomplete meld of a rank…)."""
    side = Side("table", melds=tuple(meld.cards for meld in melds), red_threes=tuple(red_threes))
    scored = score_deal(Deal(rules, deal, (side,)))
    lines, books = scored.sides[0].breakdown, scored.sides[0].books
    totals: dict[str, int | bool] = {
        "melded_points": lines.melded_points,
        "book_bonuses": lines.book_bonuses,
        "red_threes": lines.red_threes,
        "lady_bonuses": lines.lady_bonuses,
    }
    totals["total"] = sum(int(value) for value in totals.values())
    totals |= {"books": books["all"], "clean_books": books["clean"]}
    problems = tuple(replace(p, side=None) for p in scored.problems if p.meld is None)
    return totals, problems


def meld_totals(
    melds: Sequence[MeldCheck], rules: RuleSet, deal: int, *, initial: bool
) -> tuple[dict[str, int | bool], tuple[Problem, ...]]:
    """The melds' points and, with ``initial``, whether laid together they open deal ``deal``."""
    totals: dict[str, int | bool] = {"points": sum(meld.points for meld in melds)}
    if not initial:
        return totals, ()
    problems = tuple(check_initial(melds, rules, deal))
    totals["initial_minimum"] = rules.minimum_for(deal)
    totals["initial_points"] = sum(meld.card_points for meld in melds)
    totals["opens"] = bool(melds) and not problems and all(meld.legal for meld in melds)
    return totals, problems


def leftover_totals(
    cards: Sequence[Card], rules: RuleSet, deal: int, *, foot: bool = False
) -> dict[str, int | bool]:
    """What cards left in a hand (or, with ``foot``, an untaken foot) cost the side."""
    held = tuple(cards)
    side = Side(name="leftovers", hand=() if foot else held, foot=held if foot else ())
    lines = score_deal(Deal(rules, deal, (side,))).sides[0].breakdown
    totals: dict[str, int | bool] = {
        "cards": lines.foot if foot else lines.hand,
        "red_threes": lines.red_threes,
        "lady_penalties": lines.lady_penalties,
    }
    totals["total"] = sum(int(value) for value in totals.values())
    return totals


def read_melds(
    cards: Sequence[CardReading], rules: RuleSet, *, deal: int = 1, initial: bool = False
) -> TableResult:
    """Meld mode: each group of overlapping cards is a meld. When nothing overlaps, every
    card shown is one meld (a player may spread the cards of a meld apart to show it)."""
    grouping = group_cards(cards)
    unplaced: list[Unplaced] = []
    groups = [(group.cards, group.outline, group.doubt) for group in grouping.melds]
    # cards shown one by one may lie far apart: here an unsure one alone is still a card
    loose = [*grouping.singles, *grouping.strays]
    if not groups and loose:
        groups, loose = [(tuple(loose), outline(loose), None)], []
    melds = [meld for g, o, d in groups if (meld := _meld(g, o, rules, unplaced, d)) is not None]
    unplaced += [Unplaced(card, LONE_CARD) for card in loose]
    red_threes = tuple(grouping.red_threes)
    totals, problems = meld_totals([meld.verdict for meld in melds], rules, deal, initial=initial)
    return TableResult(
        Mode.MELD,
        rules,
        deal,
        tuple(melds),
        red_threes,
        (),
        tuple(unplaced),
        totals,
        problems,
    )


def read_table(
    cards: Sequence[CardReading],
    rules: RuleSet,
    *,
    deal: int = 1,
    grouping: Grouping | None = None,
) -> TableResult:
    """Table mode: a side's melds and books, its red threes, and what they are worth.
    ``grouping`` replaces the grouping by layout (the evaluation passes the true one)."""
    grouping = group_cards(cards) if grouping is None else grouping
    unplaced: list[Unplaced] = []
    melds = [
        meld
        for group in grouping.melds
        if (meld := _meld(group.cards, group.outline, rules, unplaced, group.doubt)) is not None
    ]
    unplaced += [Unplaced(card, LONE_CARD) for card in grouping.singles]
    threes = _usable(grouping.red_threes, rules, unplaced)
    verdicts = [meld.verdict for meld in melds]
    totals, problems = table_totals(verdicts, [card for _, card in threes], rules, deal)
    return TableResult(
        Mode.TABLE,
        rules,
        deal,
        tuple(melds),
        tuple(reading for reading, _ in threes),
        (),
        tuple(unplaced),
        totals,
        problems,
        tuple(Unplaced(card, STRAY) for card in grouping.strays),
    )


def read_leftovers(
    cards: Sequence[CardReading], rules: RuleSet, *, deal: int = 1, foot: bool = False
) -> TableResult:
    """Leftovers mode: every card shown was left in a hand (or, with ``foot``, in an untaken
    foot) and counts against the side; red threes and Ladies cost what the rules say."""
    unplaced: list[Unplaced] = []
    usable = _usable(sorted(cards, key=_reading_order), rules, unplaced)
    totals = leftover_totals([card for _, card in usable], rules, deal, foot=foot)
    return TableResult(
        Mode.LEFTOVERS,
        rules,
        deal,
        leftovers=tuple(reading for reading, _ in usable),
        unplaced=tuple(unplaced),
        totals=totals,
    )


def _reading_order(card: CardReading) -> tuple[float, float]:
    x0, y0, x1, y1 = card.index_box
    return (round((y0 + y1) / 2 / 50), (x0 + x1) / 2)

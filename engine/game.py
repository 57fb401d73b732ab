"""A game: deals in order → running totals and the winner, or a draw."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import DealFormatError
from engine.problems import Problem
from engine.scoring import Deal, DealResult, score_deal


@dataclass(frozen=True)
class SideTotals:
    name: str
    per_deal: tuple[int, ...]
    running: tuple[int, ...]

    @property
    def total(self) -> int:
        return self.running[-1] if self.running else 0


@dataclass(frozen=True)
class GameResult:
    deals: tuple[DealResult, ...]
    sides: tuple[SideTotals, ...]
    deals_in_game: int

    @property
    def problems(self) -> tuple[Problem, ...]:
        return tuple(problem for deal in self.deals for problem in deal.problems)

    @property
    def leaders(self) -> tuple[str, ...]:
        if not self.sides:
            return ()
        best = max(side.total for side in self.sides)
        return tuple(side.name for side in self.sides if side.total == best)

    @property
    def finished(self) -> bool:
        return len(self.deals) >= self.deals_in_game

    @property
    def winner(self) -> str | None:
        """The side with the highest total once every deal is played; None on a draw or while
        deals remain."""
        leaders = self.leaders
        return leaders[0] if self.finished and len(leaders) == 1 else None

    @property
    def draw(self) -> bool:
        return self.finished and len(self.leaders) > 1


def score_game(deals: Sequence[Deal]) -> GameResult:
    """Score each deal and add up the totals. Every deal must name the same sides; a game
    longer than its rules' number of deals is refused."""
    if not deals:
        raise DealFormatError("a game needs at least one deal")
    names = [side.name for side in deals[0].sides]
    deals_in_game = deals[0].rules.deals
    if len(deals) > deals_in_game:
        raise DealFormatError(
            f"the game has {len(deals)} deals but {deals[0].rules.name} plays {deals_in_game}"
        )
    for index, deal in enumerate(deals, start=1):
        _check_same_sides(names, deal, index)
    results = tuple(score_deal(deal) for deal in deals)
    sides = []
    for name in names:
        per_deal = tuple(
            next(s.total for s in result.sides if s.name == name) for result in results
        )
        running = tuple(sum(per_deal[: i + 1]) for i in range(len(per_deal)))
        sides.append(SideTotals(name, per_deal, running))
    return GameResult(results, tuple(sides), deals_in_game)


def _check_same_sides(names: list[str], deal: Deal, index: int) -> None:
    these = [side.name for side in deal.sides]
    if len(set(these)) != len(these):
        raise DealFormatError(f"deal {index} names a side twice: {', '.join(these)}")
    if sorted(these) != sorted(names):
        raise DealFormatError(
            f"deal {index} has the sides {', '.join(these)} but deal 1 has {', '.join(names)}"
        )
    if deal.number != index:
        raise DealFormatError(f"deal {index} of the game says it is deal {deal.number}")

"""The table's state: immutable values the service's worker replaces whole at each change, so
any thread may read the current one without a lock."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine import RuleSet, get_preset, rules_from_toml
from scanner.service.panel import PanelState
from scanner.store import DealRecord, GameRecord

DEFAULT_RULES = "pagat"


def rules_for(game: GameRecord | None) -> RuleSet:
    """The rules a stored game plays: its house-rules text, else the preset it names."""
    if game is None:
        return get_preset(DEFAULT_RULES)
    if game.rules_toml.strip():
        return rules_from_toml(game.rules_toml, source="the game's house rules")
    return get_preset(game.rules_name)


@dataclass(frozen=True)
class SideWork:
    """One side's end of the current deal so far: its working table and leftovers scans (ids),
    cards typed in, and the flags the camera cannot see."""

    name: str
    players: tuple[str, ...] = ()
    table_scan: int | None = None
    leftovers_scan: int | None = None
    typed_hand: tuple[str, ...] = ()
    typed_foot: tuple[str, ...] = ()
    went_out: bool = False
    picked_22: bool = False

    def fresh(self) -> SideWork:
        """The same side at the start of a deal."""
        return SideWork(self.name, self.players)


@dataclass(frozen=True)
class Standing:
    """The game's confirmed deals: per side, each deal's total and the running total."""

    numbers: tuple[int, ...] = ()
    per_deal: dict[str, tuple[int, ...]] = field(default_factory=dict)
    running: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, names: list[str], deals: list[DealRecord]) -> Standing:
        per_deal: dict[str, list[int]] = {name: [] for name in names}
        for deal in deals:
            totals = {
                team.get("name"): team.get("total", 0)
                for team in deal.result.get("teams", [])
                if isinstance(team, dict)
            }
            for name in names:
                value = totals.get(name, 0)
                per_deal[name].append(value if isinstance(value, int) else 0)
        running = {
            name: tuple(sum(values[: n + 1]) for n in range(len(values)))
            for name, values in per_deal.items()
        }
        return cls(
            tuple(deal.number for deal in deals),
            {name: tuple(values) for name, values in per_deal.items()},
            running,
        )

    def total(self, name: str) -> int:
        running = self.running.get(name, ())
        return running[-1] if running else 0


@dataclass(frozen=True)
class TableState:
    """Everything the page and the panel show. ``views`` holds the scored view of every scan
    the table is working with (each side's table and leftovers, the last scan)."""

    version: int = 0
    game: GameRecord | None = None
    rules: RuleSet = field(default_factory=lambda: get_preset(DEFAULT_RULES))
    deal: int | None = None
    sides: tuple[SideWork, ...] = ()
    standing: Standing = field(default_factory=Standing)
    views: dict[int, dict] = field(default_factory=dict)
    last_scan: int | None = None
    panel: PanelState = field(default_factory=PanelState)
    message: str | None = None
    # The mode or side was chosen by a person (the page's choice, the panel's MODE or NEXT)
    # since the last scan: the page's next step is then theirs, not the one it works out.
    chosen: bool = False

    @property
    def side_names(self) -> list[str]:
        return [side.name for side in self.sides]

    @property
    def finished(self) -> bool:
        return self.game is not None and len(self.standing.numbers) >= self.rules.deals

    @property
    def winner(self) -> str | None:
        if not self.finished or not self.sides:
            return None
        totals = {name: self.standing.total(name) for name in self.side_names}
        best = max(totals.values())
        leaders = [name for name, total in totals.items() if total == best]
        return leaders[0] if len(leaders) == 1 else None

    def side(self, name: str) -> SideWork | None:
        return next((side for side in self.sides if side.name == name), None)

    def with_side(self, work: SideWork) -> TableState:
        return replace(
            self, sides=tuple(work if side.name == work.name else side for side in self.sides)
        )

    def working_scans(self) -> set[int]:
        ids = {self.last_scan} if self.last_scan is not None else set()
        for side in self.sides:
            ids |= {i for i in (side.table_scan, side.leftovers_scan) if i is not None}
        return ids


DRAFT_FIELDS = ("typed_hand", "typed_foot", "went_out", "picked_22")


def draft_of(sides: tuple[SideWork, ...]) -> dict:
    """What the players said about each side this deal (not the scans: they are stored)."""
    return {
        side.name: {
            field: list(value) if isinstance(value := getattr(side, field), tuple) else value
            for field in DRAFT_FIELDS
        }
        for side in sides
    }


def with_draft(sides: tuple[SideWork, ...], draft: dict) -> tuple[SideWork, ...]:
    """``sides`` with what :func:`draft_of` kept put back; sides it does not name unchanged."""
    restored = []
    for side in sides:
        kept = draft.get(side.name) or {}
        restored.append(
            replace(
                side,
                typed_hand=tuple(kept.get("typed_hand", side.typed_hand)),
                typed_foot=tuple(kept.get("typed_foot", side.typed_foot)),
                went_out=bool(kept.get("went_out", side.went_out)),
                picked_22=bool(kept.get("picked_22", side.picked_22)),
            )
        )
    return tuple(restored)

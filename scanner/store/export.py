"""A game as one JSON document or as CSV rows, for keeping, sharing or a spreadsheet.

Both read each standing deal's stored result, the JSON ``handfoot score --json`` prints: per
side (``teams``) a ``name``, a ``total`` and a ``breakdown`` of lines. Results stored by an
older or newer engine may lack a line or carry one this code does not know; a missing line
counts as 0 and an unknown numeric line is kept as one more column.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from engine import Breakdown
from scanner.store.records import DealRecord, GameRecord
from scanner.store.store import Store


@dataclass(frozen=True)
class SideLines:
    """One side's score in one deal, read from a stored result."""

    name: str
    lines: dict[str, int]
    total: int


def side_lines(result: dict) -> list[SideLines]:
    """The per-side lines of a stored deal result, tolerating missing or extra lines.

    >>> side_lines({"teams": [{"name": "Us", "breakdown": {"hand": -20}}]})[0].total
    -20
    """
    # The engine names them "teams"; "sides" is accepted too, as the rest of handfoot says.
    entries = result.get("teams", result.get("sides"))
    sides = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        breakdown = entry.get("breakdown")
        breakdown = breakdown if isinstance(breakdown, dict) else {}
        lines = {line: _number(breakdown.get(line)) for line in Breakdown.LINES}
        lines |= {
            key: value for key, value in breakdown.items() if key not in lines and _is_number(value)
        }
        total = entry["total"] if _is_number(entry.get("total")) else sum(lines.values())
        sides.append(SideLines(entry["name"], lines, total))
    return sides


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(value: object) -> int:
    return value if _is_number(value) else 0  # type: ignore[return-value]


@dataclass(frozen=True)
class _Table:
    game: GameRecord
    deals: list[DealRecord]
    sides: list[str]
    scores: list[dict[str, SideLines]]  # per deal, by side name
    line_names: list[str]


def _table(store: Store, game_id: int) -> _Table:
    game = store.game(game_id)
    deals = store.deals(game_id)
    scores = [{side.name: side for side in side_lines(deal.result)} for deal in deals]
    names = [side["name"] for side in game.sides]
    line_names = list(Breakdown.LINES)
    for per_side in scores:
        for side in per_side.values():
            if side.name not in names:  # a deal scored for a side the game does not list
                names.append(side.name)
            line_names += [line for line in side.lines if line not in line_names]
    return _Table(game, deals, names, scores, line_names)


def _running(table: _Table) -> list[dict[str, int]]:
    """After each deal, each side's total so far."""
    totals = dict.fromkeys(table.sides, 0)
    running = []
    for per_side in table.scores:
        for name in table.sides:
            totals[name] += _total(per_side, name)
        running.append(dict(totals))
    return running


def game_to_json(store: Store, game_id: int) -> dict:
    """The game, each standing deal with its lines and the running totals, and the sides'
    totals; the stored deal and result of each deal ride along whole."""
    table = _table(store, game_id)
    running = _running(table)
    players = {side["name"]: side.get("players", []) for side in table.game.sides}
    deals = []
    for deal, per_side, after in zip(table.deals, table.scores, running, strict=True):
        deals.append(
            {
                "number": deal.number,
                "confirmed_at": deal.confirmed_at,
                "scan_ids": list(deal.scan_ids),
                "sides": [
                    {
                        "name": name,
                        "lines": _lines(per_side.get(name), table.line_names),
                        "total": _total(per_side, name),
                        "running_total": after[name],
                    }
                    for name in table.sides
                ],
                "deal": deal.deal,
                "result": deal.result,
            }
        )
    return {
        "game": table.game.to_json(),
        "deals": deals,
        "sides": [
            {
                "name": name,
                "players": list(players.get(name, [])),
                "per_deal": [_total(per_side, name) for per_side in table.scores],
                "running": [after[name] for after in running],
                "total": running[-1][name] if running else 0,
            }
            for name in table.sides
        ],
    }


def _total(per_side: dict[str, SideLines], name: str) -> int:
    return per_side[name].total if name in per_side else 0


def _lines(side: SideLines | None, names: list[str]) -> dict[str, int]:
    return {name: side.lines.get(name, 0) if side else 0 for name in names}


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as text: a name starting like a formula gets a leading
    apostrophe (OWASP's advice against CSV injection), so ``=HYPERLINK(...)`` stays a name.

    >>> spreadsheet_text("=1+2"), spreadsheet_text("-3"), spreadsheet_text("Us")
    ("'=1+2", "'-3", 'Us')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def game_to_csv(store: Store, game_id: int) -> str:
    """One row per standing deal and side: game id, deal number, side, each breakdown line,
    the deal's total and the running total."""
    table = _table(store, game_id)
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    lines_named = [spreadsheet_text(name) for name in table.line_names]
    writer.writerow(["game", "deal", "side", *lines_named, "deal_total", "running_total"])
    for deal, per_side, after in zip(table.deals, table.scores, _running(table), strict=True):
        for name in table.sides:
            side = per_side.get(name)
            lines = _lines(side, table.line_names)
            writer.writerow(
                [
                    table.game.id,
                    deal.number,
                    spreadsheet_text(name),
                    *lines.values(),
                    side.total if side else 0,
                    after[name],
                ]
            )
    return out.getvalue()

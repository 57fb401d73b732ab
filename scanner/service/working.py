"""The scans the table works with, and the checks a command makes on the state: pure functions
on :class:`~scanner.service.state.TableState` that the worker's commands share."""

from __future__ import annotations

from dataclasses import replace

from engine import RuleSet
from scanner.service import reading as readings
from scanner.service.errors import NoSuchThing, NotNow
from scanner.service.said import Said
from scanner.service.state import SideWork, TableState
from scanner.service.views import scan_view
from scanner.store import ScanRecord


def with_scan(
    state: TableState,
    record: ScanRecord,
    reading: dict,
    rules: RuleSet,
    deal: int,
    *,
    attach: bool = True,
) -> TableState:
    """``state`` with the scan's view kept, and the scan made its side's working table or
    leftovers when it is one."""
    view = scan_view(record, reading, rules, deal)
    state = replace(state, views=state.views | {record.id: view})
    work = state.side(record.side) if record.side and attach else None
    if work is not None and record.mode == "table":
        state = state.with_side(replace(work, table_scan=record.id))
    elif work is not None and record.mode == "leftovers":
        state = state.with_side(replace(work, leftovers_scan=record.id))
    return state


def pruned(state: TableState) -> TableState:
    """``state`` keeping only the views of the scans it works with."""
    keep = state.working_scans()
    return replace(state, views={k: v for k, v in state.views.items() if k in keep})


def reading_of(state: TableState, scan_id: int | None) -> dict | None:
    """The reading of a working scan, None when there is none."""
    if scan_id is None or scan_id not in state.views:
        return None
    return state.views[scan_id]["reading"]


def leftover_codes(state: TableState, scan_id: int | None) -> list[str]:
    reading = reading_of(state, scan_id)
    return readings.codes(reading["leftovers"]) if reading else []


def require_deal(state: TableState) -> TableState:
    """``state``, when a deal is in progress."""
    if state.game is None:
        raise NotNow(Said.of("no_game"))
    if state.deal is None:
        raise NotNow(Said.of("game_over"))
    return state


def check_side(state: TableState, name: str) -> SideWork:
    """The side called ``name`` in this game."""
    work = state.side(name)
    if work is None:
        known = ", ".join(state.side_names) or "none: start a game first"
        raise NoSuchThing("side", f"{name!r} in this game (the sides are {known})")
    return work

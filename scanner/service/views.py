"""The table as the page and the API show it: plain JSON-able dicts built from the state."""

from __future__ import annotations

from engine import RuleSet, all_cards
from scanner.service import reading as readings
from scanner.service.said import Said, nothing
from scanner.service.state import SideWork, TableState
from scanner.store import ScanRecord


def scan_view(record: ScanRecord, reading: dict, rules: RuleSet, deal: int) -> dict:
    """A scan as the page shows it: where and when, and the engine's verdict on its reading."""
    view = readings.score_reading(reading, rules, deal)
    return view | {
        "id": record.id,
        "created_at": record.created_at,
        "game_id": record.game_id,
        "deal_number": record.deal_number,
        "side": record.side,
        "rules": rules.name,
        "has_image": bool(record.image_file),
        "has_annotated": bool(record.annotated_file),
        "frames": reading.get("frames"),
        "reading": reading,
    }


def panel_points(view: dict) -> int:
    totals = view["totals"]
    return int(totals.get("total", totals.get("points", 0)))


def scan_sentence(view: dict) -> Said:
    """One line about a scan, for the page's status line."""
    count = view["check_count"]
    check = (
        Said.of("check_one" if count == 1 else "check_many", count=count) if count else nothing()
    )
    advice = f" {view['advice']}" if view.get("advice") else ""
    if view["mode"] == "leftovers":
        return Said.of("scan_leftovers", points=view["totals"]["total"], check=check, advice=advice)
    count_melds = len(view["melds"])
    melds = Said.of("melds_one") if count_melds == 1 else Said.of("melds_many", count=count_melds)
    legal = Said.of("all_legal" if view["legal"] else "not_all_legal")
    return Said.of(
        "scan_melds",
        melds=melds,
        legal=legal,
        points=panel_points(view),
        check=check,
        advice=advice,
    )


def side_json(work: SideWork) -> dict:
    return {
        "name": work.name,
        "players": list(work.players),
        "table_scan": work.table_scan,
        "leftovers_scan": work.leftovers_scan,
        "typed_hand": list(work.typed_hand),
        "typed_foot": list(work.typed_foot),
        "went_out": work.went_out,
        "picked_22": work.picked_22,
    }


def minimum_text(rules: RuleSet, deal: int | None) -> str | None:
    """What the first meld of ``deal`` needs, in words."""
    if deal is None:
        return None
    if deal in rules.concealed_first_meld_deals:
        return f"a concealed canasta ({rules.book_size} or more cards from the hand at once)"
    return f"{rules.minimum_for(deal)} points"


def rules_json(rules: RuleSet) -> dict:
    return {
        "name": rules.name,
        "description": rules.description,
        "deck": rules.deck.value,
        "deals": rules.deals,
        "exact_22": rules.exact_22_bonus > 0,
        "codes": [card.code for card in all_cards(rules.deck)],
    }


def public_view(view: dict | None) -> dict | None:
    """A scan's view without the raw reading it was built from (the page needs only this)."""
    if view is None:
        return None
    return {key: value for key, value in view.items() if key != "reading"}


def next_step(state: TableState) -> dict:
    """What the table does next, for the page's big button: scan a side's table, then its
    leftovers, side after side, then confirm the deal. ``mode`` and ``side`` are the scan's
    own (the page sends them with the press, so the mode is chosen per step, never left over
    from the previous scan)."""
    if state.game is None:
        return {"kind": "new_game"}
    if state.deal is None:
        return {"kind": "over"}
    if state.chosen or state.panel.mode == "meld":  # a person's choice: theirs
        return {"kind": "scan", "mode": state.panel.mode, "side": state.panel.side}
    for work in state.sides:
        if work.table_scan is None:
            return {"kind": "scan", "mode": "table", "side": work.name}
        if work.leftovers_scan is None and not work.typed_hand and not work.went_out:
            return {"kind": "scan", "mode": "leftovers", "side": work.name}
    return {"kind": "confirm", "deal": state.deal}


def leader(state: TableState) -> dict | None:
    """Who leads the game and by how much (None before the first deal or on a tie)."""
    if not state.sides or not state.standing.numbers:
        return None
    totals = sorted(
        ((state.standing.total(side.name), side.name) for side in state.sides), reverse=True
    )
    if len(totals) > 1 and totals[0][0] == totals[1][0]:
        return {"name": None, "gap": 0}
    gap = totals[0][0] - totals[1][0] if len(totals) > 1 else 0
    return {"name": totals[0][1], "gap": gap}


def state_json(state: TableState, camera: dict) -> dict:
    """Everything the page shows about the table now."""
    sides = []
    for work in state.sides:
        sides.append(
            side_json(work)
            | {
                "total": state.standing.total(work.name),
                "per_deal": list(state.standing.per_deal.get(work.name, ())),
                "running": list(state.standing.running.get(work.name, ())),
                "table": public_view(state.views.get(work.table_scan or 0)),
                "leftovers": public_view(state.views.get(work.leftovers_scan or 0)),
            }
        )
    return {
        "version": state.version,
        "message": state.message,
        # the same, to be said in the page's language (None for a sentence not yet in one)
        "said": state.message.to_json() if isinstance(state.message, Said) else None,
        "game": state.game.to_json() if state.game else None,
        "rules": rules_json(state.rules),
        "deal": state.deal,
        "minimum": minimum_text(state.rules, state.deal),
        "deals_played": list(state.standing.numbers),
        "finished": state.finished,
        "winner": state.winner,
        "sides": sides,
        "last_scan": public_view(state.views.get(state.last_scan or 0)),
        "panel": state.panel.to_json(),
        "busy": state.panel.busy,
        "camera": camera,
        "next": next_step(state),
        "leader": leader(state),
        "seating": seating(state),
        "dealer": dealer(state),
    }


def seating(state: TableState) -> list[dict]:
    """Who sits where, seat by seat (empty where the game's players have no seats)."""
    if state.game is None:
        return []
    seated = [
        {"seat": seat, "player": player, "side": side["name"]}
        for side in state.game.sides
        for player, seat in zip(side.get("players", []), side.get("seats") or [], strict=False)
    ]
    return sorted(seated, key=lambda place: place["seat"])


def dealer(state: TableState) -> dict | None:
    """Who deals the deal in progress: seat 1 the first deal, then the next seat to the left
    (None without seats or once the game is over)."""
    places = seating(state)
    if not places or state.deal is None:
        return None
    return places[(state.deal - 1) % len(places)]

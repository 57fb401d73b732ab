"""Past games as the History page shows them: totals, winners, every deal's breakdown, and the
exports (read from the game record; nothing here changes it)."""

from __future__ import annotations

from engine import HandfootError
from scanner.service.errors import NoSuchThing
from scanner.service.state import Standing, rules_for
from scanner.store import GameRecord, NotFound, Store


def summary(store: Store, game: GameRecord) -> dict:
    """A game with its deals played, each side's total, and the winner once it is over."""
    standing_deals = store.deals(game.id)
    names = [side["name"] for side in game.sides]
    standing = Standing.of(names, standing_deals)
    try:
        planned = rules_for(game).deals
    except HandfootError:
        planned = len(standing_deals)
    totals = {name: standing.total(name) for name in names}
    finished = len(standing_deals) >= planned
    best = max(totals.values()) if totals else 0
    leaders = [name for name, total in totals.items() if total == best]
    return game.to_json() | {
        "deals_played": len(standing_deals),
        "deals_in_game": planned,
        "totals": totals,
        "finished": finished,
        "winner": leaders[0] if finished and len(leaders) == 1 else None,
        "leaders": leaders,
    }


def games(store: Store) -> list[dict]:
    """Every game, newest first."""
    return [summary(store, game) for game in store.games()]


def game(store: Store, game_id: int) -> dict:
    """One game: its summary, every standing deal's lines and scans, per-side running totals."""
    from scanner.store.export import game_to_json

    try:
        record = store.game(game_id)
    except NotFound:
        raise NoSuchThing("game", game_id) from None
    exported = game_to_json(store, game_id)
    # where each player sat, as the game record keeps it beside the players
    seats = {side["name"]: side["seats"] for side in record.sides if side.get("seats")}
    sides = [
        side | ({"seats": seats[side["name"]]} if side.get("name") in seats else {})
        for side in exported["sides"]
    ]
    return summary(store, record) | {"deals": exported["deals"], "sides": sides}


def export(store: Store, game_id: int, kind: str) -> dict | str:
    """The game as JSON (a dict) or as CSV text."""
    from scanner.store.export import game_to_csv, game_to_json

    try:
        return game_to_json(store, game_id) if kind == "json" else game_to_csv(store, game_id)
    except NotFound:
        raise NoSuchThing("game", game_id) from None

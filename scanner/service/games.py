"""Games: starting one, putting a stored one back on the table (at start-up too), and reading
past games and their exports."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from engine import HandfootError, RuleSet
from scanner.service import history
from scanner.service.camera import TableCamera
from scanner.service.checks import MAX_GAME_NAME, check_sides, clean_name, parse_rules
from scanner.service.errors import BadInput, Busy
from scanner.service.panel import PanelState
from scanner.service.said import Said
from scanner.service.state import SideWork, Standing, TableState, rules_for, with_draft
from scanner.service.worker import Worker
from scanner.service.working import with_scan
from scanner.store import GameRecord, Store
from scanner.store.decks import DeckRecord

log = logging.getLogger(__name__)


def resumed(
    store: Store, game: GameRecord, rules: RuleSet, panel: PanelState, version: int
) -> TableState:
    """The table at ``game``'s next deal: its standing, and the deal in progress picked up
    where it was left (each side's newest scans and what the players said)."""
    standing_deals = store.deals(game.id)
    sides = tuple(SideWork(side["name"], tuple(side.get("players", []))) for side in game.sides)
    names = [side.name for side in sides]
    number = len(standing_deals) + 1
    state = TableState(
        version=version,
        game=game,
        rules=rules,
        deal=number if number <= rules.deals else None,
        sides=sides,
        standing=Standing.of(names, standing_deals),
        # Every deal starts with the first side's table: a mode chosen for the last scan of
        # the previous deal (often leftovers) never carries over into the next one.
        panel=replace(panel, side=names[0] if names else None, mode="table").cleared(),
    )
    if state.deal is None:
        return state
    # The deal in progress: each side's newest table and leftovers scans.
    scans = store.scans(game.id, deal_number=state.deal)
    for record in reversed(scans):  # oldest first, so the newest wins
        state = with_scan(state, record, record.reading, rules, state.deal)
    draft = store.draft(game.id, state.deal)
    return state if draft is None else replace(state, sides=with_draft(state.sides, draft))


class Games(Worker):
    """New and resumed games, and the record of past ones."""

    store: Store
    camera: TableCamera
    _deck: Callable[[str], DeckRecord]  # a taught deck by name, or NoSuchDeck (``decks.py``)

    def _restore(self) -> TableState:
        for game in self.store.games():
            try:
                rules = rules_for(game)
            except HandfootError as error:
                log.warning("game %d cannot be resumed: %s", game.id, error)
                continue
            self.camera.use_deck(rules.deck)
            return self._resume(game, rules, PanelState())
        return TableState()

    def _resume(self, game: GameRecord, rules: RuleSet, panel: PanelState) -> TableState:
        return resumed(self.store, game, rules, panel, self._state.version)

    def new_game(
        self,
        *,
        name: str,
        sides: list[dict],
        rules: str | None = None,
        rules_toml: str | None = None,
        deck: str | None = None,
    ) -> dict:
        """Start a game: ``sides`` as ``[{"name", "players": [...]}]``, the rules a preset
        name or a house-rules text, ``deck`` the taught deck its scans are read with (one of
        the rules' deck: standard or special). Returns the game."""
        checked = check_sides(sides)
        played, rules_name, toml = parse_rules(rules, rules_toml)
        name = clean_name(name or "", MAX_GAME_NAME)
        if deck is not None:
            deck = self._game_deck(deck, played.deck.value)

        def apply() -> dict:
            if self._state.panel.busy:
                raise Busy()
            game = self.store.create_game(name, rules_name, toml, checked, deck)
            self.camera.use_deck(played.deck)
            state = self._resume(game, played, self._state.panel)
            self._commit(state, "game", Said.of("new_game", rules=played.name))
            return game.to_json()

        return self._call(apply)

    def _game_deck(self, name: str, kind: str) -> str:
        """The kept name of taught deck ``name`` for a game played with the ``kind`` of deck;
        refused in plain words where none is kept or it is the other kind."""
        taught = self._deck(name)
        if taught.layout != kind:
            other = Said.of(f"deck_{taught.layout}")
            said = Said.of("deck_other_kind", name=taught.name, deck=other)
            raise BadInput("deck", name, str(said), said)
        return taught.name

    def resume_game(self, game_id: int) -> dict:
        """Make a stored game the table's game again, at its next deal."""

        def apply() -> dict:
            game = self.store.game(game_id)
            played = rules_for(game)
            self.camera.use_deck(played.deck)
            state = self._resume(game, played, self._state.panel)
            self._commit(state, "game", Said.of("resumed", id=game.id))
            return game.to_json()

        return self._call(apply)

    def games(self) -> list[dict]:
        """Every game, newest first, with its totals and winner."""
        return history.games(self.store)

    def game(self, game_id: int) -> dict:
        """One game: its summary, every deal's breakdown and its scans."""
        return history.game(self.store, game_id)

    def export(self, game_id: int, kind: str) -> dict | str:
        """A game as JSON (a dict) or CSV (text), for keeping or a spreadsheet."""
        return history.export(self.store, game_id, kind)

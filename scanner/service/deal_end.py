"""The end of a deal: what the camera cannot see (kept as a draft), the preview, recording the
deal, and taking the last one back."""

from __future__ import annotations

from dataclasses import replace

from scanner.service import deal as deals
from scanner.service import reading as readings
from scanner.service.checks import typed_cards
from scanner.service.errors import Busy, NotNow, Stale
from scanner.service.games import resumed
from scanner.service.said import Problems, Said, nothing
from scanner.service.state import TableState, draft_of
from scanner.service.views import side_json
from scanner.service.worker import Worker
from scanner.service.working import (
    check_side,
    leftover_codes,
    reading_of,
    require_deal,
    with_scan,
)
from scanner.store import DealRecord, ScanRecord, Store


def preview_of(state: TableState) -> dict:
    """The deal in progress as it would be recorded now: the engine's breakdown per side, its
    problems, the cards still to check and what is missing."""
    assert state.game is not None and state.deal is not None
    ends, checks, warnings = [], [], []
    for work in state.sides:
        table = reading_of(state, work.table_scan)
        leftovers = reading_of(state, work.leftovers_scan)
        if table is None:
            warnings.append(Said.of("no_table_scan", side=work.name))
        if leftovers is None and not work.typed_hand and not work.went_out:
            warnings.append(Said.of("no_leftovers", side=work.name))
        for scan_id, reading in ((work.table_scan, table), (work.leftovers_scan, leftovers)):
            for card in readings.check_cards(reading) if reading else []:
                checks.append(
                    {
                        "side": work.name,
                        "scan": scan_id,
                        "card": card["id"],
                        "code": card["code"],
                        "reason": card.get("reason", "read unsurely"),
                    }
                )
        ends.append(
            deals.SideEnd(
                work.name,
                table,
                leftovers,
                work.typed_hand,
                work.typed_foot,
                work.went_out,
                work.picked_22,
            )
        )
    deal = deals.deal_json(state.game.rules_name, state.deal, ends)
    result = deals.score(deal, state.rules)
    return {
        "deal_number": state.deal,
        "deal": deal,
        "result": result,
        "possible": result["possible"],
        "problems": deals.problem_sentences(result),
        "problems_said": deals.problems_said(result),
        "checks": checks,
        "warnings": warnings,
        "scan_ids": [
            i for work in state.sides for i in (work.table_scan, work.leftovers_scan) if i
        ],
    }


def reopened(state: TableState, record: DealRecord, scans: list[ScanRecord]) -> TableState:
    """``state`` with the recorded deal in progress again: its ``scans`` (the record's, in its
    order) and each side's typed cards and flags."""
    state = replace(state, views={}, sides=tuple(side.fresh() for side in state.sides))
    for scan in scans:
        state = with_scan(state, scan, scan.reading, state.rules, record.number)
    teams = {team["name"]: team for team in record.deal.get("teams", [])}
    for work in state.sides:
        team = teams.get(work.name)
        if team is None:
            continue
        scanned = leftover_codes(state, work.leftovers_scan)
        typed = list(team.get("hand", []))
        for code in scanned:
            if code in typed:
                typed.remove(code)
        state = state.with_side(
            replace(
                work,
                typed_hand=tuple(typed),
                typed_foot=tuple(team.get("foot", [])),
                went_out=bool(team.get("went_out")),
                picked_22=bool(team.get("picked_22")),
            )
        )
    return state


class DealEnd(Worker):
    """The page's end-of-deal actions (the panel's NEXT reaches the same ones)."""

    store: Store

    def set_side(
        self,
        name: str,
        *,
        went_out: bool | None = None,
        picked_22: bool | None = None,
        hand: str | None = None,
        foot: str | None = None,
    ) -> dict:
        """What the camera cannot see: who went out, an exact 22, cards typed in for a hand
        or an untaken foot."""

        def apply() -> dict:
            state = require_deal(self._state)
            work = check_side(state, name)
            deck = state.rules.deck
            if hand is not None:
                work = replace(work, typed_hand=typed_cards("hand", hand, deck))
            if foot is not None:
                work = replace(work, typed_foot=typed_cards("foot", foot, deck))
            if picked_22 is not None:
                work = replace(work, picked_22=picked_22)
            if went_out is not None:
                work = replace(work, went_out=went_out)
            new = state.with_side(work)
            if went_out:  # only one side goes out in a deal
                new = replace(
                    new,
                    sides=tuple(
                        side if side.name == name else replace(side, went_out=False)
                        for side in new.sides
                    ),
                )
            # on disk before the page is told, so a restart mid-deal loses none of it
            self.store.save_draft(new.game.id, new.deal, draft_of(new.sides))
            self._commit(new, "deal")
            return side_json(work)

        return self._call(apply)

    def preview(self) -> dict:
        """The deal as it would be recorded now: the engine's breakdown per side, its
        problems, and the cards still to check."""
        return preview_of(require_deal(self._state))

    def confirm(self, *, accept_checks: bool = False, deal: int | None = None) -> dict:
        """Record the deal. Refused while cards are still marked check (unless the players
        accept them as read) or while the engine says the deal cannot have happened.
        ``deal``: the number the page showed; when the table has moved on (another phone
        confirmed it a moment ago), :class:`Stale` rather than recording the next deal."""

        def apply() -> dict:
            if deal is not None and deal != self._state.deal:
                raise Stale(deal, self._state.deal)
            return self._record_deal(accept_checks=accept_checks)

        return self._call(apply)

    def undo(self) -> dict:
        """Take back the last recorded deal: it becomes the deal in progress again, with its
        scans and flags, ready to correct and confirm."""

        return self._call(lambda: self._undo(self._state))

    def _record_deal(self, *, accept_checks: bool, from_panel: bool = False) -> dict:
        """Confirm on the worker: the page's Confirm, or the panel's second NEXT."""
        state = require_deal(self._state)
        if state.panel.busy:
            raise Busy()
        preview = preview_of(state)
        if preview["checks"] and not accept_checks:
            count = len(preview["checks"])
            checks = Said.of("checks_many", count=count) if count > 1 else Said.of("checks_one")
            raise NotNow(checks)
        if not preview["possible"]:
            problems = preview["problems"]
            shown = Problems.of(problems[:3], preview["problems_said"][:3])
            more = nothing()
            if len(problems) > 3:
                more = Said.of("impossible_more", count=len(problems) - 3)
            raise NotNow(Said.of("impossible", problems=shown, more=more))
        assert state.game is not None and state.deal is not None
        record = self.store.confirm_deal(
            state.game.id, state.deal, preview["deal"], preview["result"], preview["scan_ids"]
        )
        if state.game.deck is not None:  # the deal's corrections join the game's deck
            self.learn_corrections(state.game.deck, preview["scan_ids"])
        new = resumed(self.store, state.game, state.rules, state.panel, self._state.version)
        if from_panel:
            new = replace(new, panel=new.panel.recorded())
        totals = ", ".join(f"{team['name']} {team['total']}" for team in preview["result"]["teams"])
        over = nothing()
        if new.finished:
            over = Said.of("over_winner", name=new.winner) if new.winner else Said.of("over_draw")
        self._commit(new, "deal", Said.of("recorded", deal=record.number, totals=totals, over=over))
        return record.to_json()

    def _undo(self, state: TableState, *, from_panel: bool = False) -> dict:
        """Undo on the worker: the page's Undo, or the panel's NEXT held."""
        if state.game is None:
            raise NotNow(Said.of("no_game"))
        if state.panel.busy:
            raise Busy()
        record = self.store.undo_last_deal(state.game.id)
        if record is None:
            raise NotNow(Said.of("nothing_to_undo"))
        new = resumed(self.store, state.game, state.rules, state.panel, self._state.version)
        new = reopened(new, record, [self.store.scan(scan_id) for scan_id in record.scan_ids])
        if from_panel:
            new = replace(new, panel=new.panel.undone())
        self._commit(new, "deal", Said.of("undone", deal=record.number))
        return record.to_json()

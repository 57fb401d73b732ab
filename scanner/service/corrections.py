"""Recorded scans after the fact: their corrections, their views and their photos."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from engine import RuleSet, get_preset
from scanner.service import reading as readings
from scanner.service.errors import NoSuchThing, NotNow
from scanner.service.said import Said
from scanner.service.state import rules_for
from scanner.service.views import panel_points, scan_sentence, scan_view
from scanner.service.worker import Worker
from scanner.store import NotFound, ScanRecord, Store


class Corrections(Worker):
    """Correcting a scan, and any recorded scan as the page shows it."""

    store: Store

    def correct(self, scan_id: int, action: str, detail: dict) -> dict:
        """Change a card's code, move it, add a missed card, delete a phantom, or accept an
        unsure card; the correction is kept with the scan and the result recomputed."""

        def apply() -> dict:
            record = self._scan_record(scan_id)
            rules, deal = self._rules_of(record)
            if record.reading.get("format") != readings.FORMAT:
                raise NotNow(Said.of("not_at_table", id=scan_id))
            reading = readings.correct(record.reading, action, detail, rules.deck)
            self.store.correct_scan(scan_id, action, detail, reading)
            view = scan_view(record, reading, rules, deal)
            state = self._state
            if scan_id in state.working_scans():
                new = replace(state, views=state.views | {scan_id: view})
                if scan_id == state.last_scan:
                    panel = state.panel.showing(
                        panel_points(view), legal=view["legal"], check=view["check_count"] > 0
                    )
                    new = replace(new, panel=panel)
                said = Said.of("corrected", id=scan_id, sentence=scan_sentence(view))
                self._commit(new, "correction", said)
            return view

        return self._call(apply)

    def scan_view(self, scan_id: int) -> dict:
        """Any recorded scan as the page shows it, with its corrections."""
        state = self._state
        if scan_id in state.views:
            view = state.views[scan_id]
        else:
            record = self._scan_record(scan_id)
            rules, deal = self._rules_of(record)
            view = scan_view(record, record.reading, rules, deal)
        corrections = self.store.corrections(scan_id)
        return view | {"corrections": [c.to_json() | {"reading": None} for c in corrections]}

    def scan_file(self, scan_id: int, *, annotated: bool = False) -> Path:
        """The file of a scan's photo (or of its annotated copy)."""
        record = self._scan_record(scan_id)
        name = record.annotated_file if annotated else record.image_file
        if not name:
            raise NoSuchThing("annotated picture of scan", scan_id)
        try:
            return self.store.path_of(name)
        except NotFound:
            raise NoSuchThing("picture of scan", scan_id) from None

    def _scan_record(self, scan_id: int) -> ScanRecord:
        try:
            return self.store.scan(scan_id)
        except NotFound:
            raise NoSuchThing("scan", scan_id) from None

    def _rules_of(self, record: ScanRecord) -> tuple[RuleSet, int]:
        """The rules and the deal a scan is scored under."""
        state = self._state
        if record.game_id is None:
            return get_preset("pagat"), 1
        if state.game is not None and record.game_id == state.game.id:
            rules = state.rules
        else:
            rules = rules_for(self.store.game(record.game_id))
        deal = record.deal_number or state.deal or rules.deals
        return rules, min(max(deal, 1), rules.deals)

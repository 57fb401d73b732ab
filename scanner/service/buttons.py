"""The panel's buttons, pressed and held, and the page's choice of mode and side."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import replace

from scanner.service.checks import check_mode
from scanner.service.deal_end import DealEnd, preview_of
from scanner.service.errors import NotNow, ServiceError
from scanner.service.panel import HOLDS, Button
from scanner.service.said import Problems, Said, nothing
from scanner.service.scanning import Scanning
from scanner.service.state import TableState
from scanner.service.working import check_side


class Buttons(Scanning, DealEnd):
    """MODE, NEXT and SCAN: a press or a hold only queues a command, which the worker
    applies."""

    def select(self, *, mode: str | None = None, side: str | None = None) -> dict:
        """Choose the mode and side the next scan is for (the page's mode and side buttons)."""
        if mode is not None:
            check_mode(mode)

        def apply() -> dict:
            state = self._state
            panel = state.panel
            if mode is not None:
                panel = replace(panel, mode=mode)
            if side is not None:
                check_side(state, side)
                panel = replace(panel, side=side)
            self._commit(replace(state, panel=panel, chosen=True), "panel")
            return panel.to_json()

        return self._call(apply)

    def press(self, button: Button) -> Future:
        """A panel button: MODE and NEXT change the panel, SCAN scans in the panel's mode for
        its side. Returns at once with a future (the scan's view, for SCAN); the gpiozero
        panel calls this from its own thread and never waits."""
        if button is Button.SCAN:
            done: Future = Future()

            def start() -> None:
                panel = self._state.panel
                try:
                    self._start_scan(panel.mode, panel.side, self._camera_job, done)
                except ServiceError as error:
                    done.set_exception(error)

            self._submit(start)
            return done

        def apply() -> dict:
            state = self._state
            if button is Button.MODE:
                self._commit(replace(state, panel=state.panel.next_mode(), chosen=True), "panel")
            else:
                self._next(state)
            return self._state.panel.to_json()

        return self._submit(apply)

    def hold(self, button: Button) -> Future:
        """A panel button held down: SCAN cancels (the scan under way, a question NEXT asked,
        or the result shown), NEXT undoes the last recorded deal. Returns at once with a
        future, like :meth:`press`."""
        action = HOLDS.get(button)
        if action is None:
            raise ValueError(f"holding {button.value.upper()} does nothing")

        def apply() -> dict:
            state = self._state
            if action == "cancel":
                self._cancel(state)
            else:
                try:
                    self._undo(state, from_panel=True)
                except NotNow as error:
                    said = error.said or str(error)
                    self._commit(replace(state, panel=state.panel.failed(5)), "panel", said)
                    raise
            return self._state.panel.to_json()

        return self._submit(apply)

    def _next(self, state: TableState) -> None:
        """NEXT: the next side. On the last side, once every side's table and leftovers are in
        and the deal can have happened, NEXT asks to record it (the display shows ``End``) and
        a second NEXT records it, cards marked check as read; a deal that cannot be recorded
        shows Err 4 (the page says why) and the panel goes back to the first side."""
        panel = state.panel
        if panel.confirming:
            try:
                self._record_deal(accept_checks=True, from_panel=True)
            except NotNow as error:
                self._commit(
                    replace(state, panel=panel.failed(4)), "panel", error.said or str(error)
                )
            return
        names = state.side_names
        if names and panel.side == names[-1] and state.deal is not None and not panel.busy:
            preview = preview_of(state)
            if not preview["warnings"]:  # every side is scanned (or typed in)
                if preview["possible"]:
                    checks = len(preview["checks"])
                    totals = ", ".join(
                        f"{team['name']} {team['total']}" for team in preview["result"]["teams"]
                    )
                    as_read = Said.of("panel_as_read", count=checks) if checks else nothing()
                    message = Said.of("panel_ask", deal=state.deal, totals=totals, as_read=as_read)
                    self._commit(
                        replace(state, panel=panel.asking(check=checks > 0)), "panel", message
                    )
                    return
                first = replace(panel.failed(4), side=names[0])
                shown = Problems.of(preview["problems"][:2], preview["problems_said"][:2])
                message = Said.of("panel_cannot_record", deal=state.deal, problems=shown)
                self._commit(replace(state, panel=first), "panel", message)
                return
        self._commit(replace(state, panel=panel.next_side(names), chosen=True), "panel")

    def _cancel(self, state: TableState) -> None:
        job = self._scan_job
        if state.panel.busy and job is not None:
            job.cancelled.set()
            message = Said.of("panel_cancelled")
        elif state.panel.confirming:
            message = Said.of("panel_not_recorded")
        else:
            message = None
        self._commit(replace(state, panel=state.panel.cleared()), "panel", message)

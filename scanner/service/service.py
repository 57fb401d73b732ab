"""The table's state machine: what a button on the panel or an action on the page does.

One worker thread owns the state. Every operation, whoever asks (a page's request on a web
thread, a panel button on gpiozero's thread), is a command put on one queue; the worker applies
them in order and publishes each change to the listeners (:attr:`TableService.events`). A scan
runs on its own thread, one at a time, so the worker stays free for corrections and reads while
the camera works; a second press while one runs is answered "busy".
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from engine import HandfootError, RuleSet, get_preset
from scanner.camera import CameraError
from scanner.service import deal as deals
from scanner.service import history
from scanner.service import reading as readings
from scanner.service.camera import TableCamera
from scanner.service.checks import check_mode, check_sides, parse_rules, typed_cards
from scanner.service.errors import (
    Busy,
    CannotScan,
    NoSuchThing,
    NotNow,
    ServiceError,
    Unreadable,
)
from scanner.service.events import Broadcaster
from scanner.service.images import decode_upload, encode_jpeg
from scanner.service.panel import HOLDS, Button, PanelState
from scanner.service.state import (
    SideWork,
    Standing,
    TableState,
    draft_of,
    rules_for,
    with_draft,
)
from scanner.service.views import (
    panel_points,
    rules_json,
    scan_sentence,
    scan_view,
    side_json,
    state_json,
)
from scanner.store import DealRecord, GameRecord, NotFound, ScanRecord, Store

log = logging.getLogger(__name__)
T = TypeVar("T")

COMMAND_TIMEOUT_S = 30.0
SCAN_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class ScanJob:
    """What a scan is for, fixed when the button is pressed."""

    mode: str
    side: str | None
    game_id: int | None
    deal: int | None  # the deal it belongs to; None outside a game or after its last deal
    score_deal: int  # the deal whose rules (initial minimum) score it
    rules: RuleSet
    # Set when the panel's SCAN is held: the result is dropped, nothing is recorded.
    cancelled: threading.Event = field(default_factory=threading.Event, compare=False, repr=False)


class TableService:
    """Build it with its collaborators, :meth:`start` it, :meth:`stop` it. The methods a page
    calls block until the worker has applied them and return plain JSON-able values."""

    def __init__(
        self,
        store: Store,
        recogniser: Any,
        camera: TableCamera,
        *,
        panel_kind: str = "simulated",
        frames: int = 3,
    ) -> None:
        self.store = store
        self.recogniser = recogniser
        self.camera = camera
        self.panel_kind = panel_kind
        self.frames = frames
        self.events = Broadcaster()
        self._queue: queue.Queue[tuple[Callable[[], Any], Future] | None] = queue.Queue()
        self._state = TableState()
        self._worker: threading.Thread | None = None
        self._scanner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scan")
        self._scan_job: ScanJob | None = None  # the scan under way (worker only)

    # --- running ----------------------------------------------------------------------------

    def start(self) -> None:
        """Pick up the newest game where it was left (its working scans too), then start the
        worker."""
        if self._worker is not None:
            return
        self._state = self._restore()
        self._worker = threading.Thread(target=self._run, name="table-service", daemon=True)
        self._worker.start()
        log.info("table service started (game %s)", self._state.game and self._state.game.id)

    def stop(self) -> None:
        if self._worker is None:
            return
        # A scan under way finishes first: its result goes through the worker.
        self._scanner.shutdown(wait=True, cancel_futures=True)
        self._queue.put(None)
        self._worker.join(timeout=10)
        self._worker = None
        self.events.publish({"kind": "closed", "version": self._state.version})
        log.info("table service stopped")

    @property
    def running(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    @property
    def state(self) -> TableState:
        """The current state (immutable; the worker replaces it at each change)."""
        return self._state

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            command, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(command())
            except BaseException as error:
                future.set_exception(error)

    def _submit(self, command: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        if not self.running:
            future.set_exception(NotNow("The table service is not running."))
            return future
        self._queue.put((command, future))
        return future

    def _call(self, command: Callable[[], T]) -> T:
        return self._submit(command).result(timeout=COMMAND_TIMEOUT_S)

    def _post(self, command: Callable[[], Any]) -> None:
        """Queue a command nobody waits for; a failure is logged."""

        def report(future: Future) -> None:
            if future.exception() is not None and not isinstance(future.exception(), Busy):
                log.error("a queued command failed", exc_info=future.exception())

        self._submit(command).add_done_callback(report)

    def _commit(self, state: TableState, kind: str, message: str | None = None) -> None:
        """Make ``state`` current (worker only) and tell every listener."""
        state = replace(state, version=self._state.version + 1, message=message)
        self._state = state
        self.events.publish(
            {
                "kind": kind,
                "version": state.version,
                "message": message,
                "panel": state.panel.to_json(),
                "last_scan": state.last_scan,
            }
        )

    # --- starting and resuming ---------------------------------------------------------------

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
        standing_deals = self.store.deals(game.id)
        sides = tuple(SideWork(side["name"], tuple(side.get("players", []))) for side in game.sides)
        names = [side.name for side in sides]
        number = len(standing_deals) + 1
        state = TableState(
            version=self._state.version,
            game=game,
            rules=rules,
            deal=number if number <= rules.deals else None,
            sides=sides,
            standing=Standing.of(names, standing_deals),
            panel=replace(panel, side=names[0] if names else None).cleared(),
        )
        if state.deal is None:
            return state
        # The deal in progress: each side's newest table and leftovers scans.
        scans = self.store.scans(game.id, deal_number=state.deal)
        for record in reversed(scans):  # oldest first, so the newest wins
            state = self._attach(state, record, record.reading, rules, state.deal)
        draft = self.store.draft(game.id, state.deal)
        return state if draft is None else replace(state, sides=with_draft(state.sides, draft))

    def new_game(
        self,
        *,
        name: str,
        sides: list[dict],
        rules: str | None = None,
        rules_toml: str | None = None,
    ) -> dict:
        """Start a game: ``sides`` as ``[{"name", "players": [...]}]``, the rules a preset
        name or a house-rules text. Returns the game."""
        checked = check_sides(sides)
        played, rules_name, toml = parse_rules(rules, rules_toml)
        name = (name or "").strip()[:80]

        def apply() -> dict:
            if self._state.panel.busy:
                raise Busy()
            game = self.store.create_game(name, rules_name, toml, checked)
            self.camera.use_deck(played.deck)
            state = self._resume(game, played, self._state.panel)
            self._commit(state, "game", f"A new game has started: deal 1, {played.name} rules.")
            return game.to_json()

        return self._call(apply)

    def resume_game(self, game_id: int) -> dict:
        """Make a stored game the table's game again, at its next deal."""

        def apply() -> dict:
            game = self.store.game(game_id)
            played = rules_for(game)
            self.camera.use_deck(played.deck)
            state = self._resume(game, played, self._state.panel)
            self._commit(state, "game", f"Game {game.id} is on the table again.")
            return game.to_json()

        return self._call(apply)

    # --- the panel and the choice of mode and side -------------------------------------------

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
                self._check_side(state, side)
                panel = replace(panel, side=side)
            self._commit(replace(state, panel=panel), "panel")
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
                self._commit(replace(state, panel=state.panel.next_mode()), "panel")
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
                    self._commit(replace(state, panel=state.panel.failed(5)), "panel", str(error))
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
                self._commit(replace(state, panel=panel.failed(4)), "panel", str(error))
            return
        names = state.side_names
        if names and panel.side == names[-1] and state.deal is not None and not panel.busy:
            preview = self._preview(state)
            if not preview["warnings"]:  # every side is scanned (or typed in)
                if preview["possible"]:
                    checks = len(preview["checks"])
                    totals = ", ".join(
                        f"{team['name']} {team['total']}" for team in preview["result"]["teams"]
                    )
                    as_read = f", {checks} marked check as read" if checks else ""
                    message = (
                        f"Deal {state.deal}: {totals}. Press NEXT again to record it{as_read}; "
                        "hold SCAN to go back."
                    )
                    self._commit(
                        replace(state, panel=panel.asking(check=checks > 0)), "panel", message
                    )
                    return
                first = replace(panel.failed(4), side=names[0])
                shown = "; ".join(preview["problems"][:2])
                message = f"Deal {state.deal} cannot be recorded: {shown}. Correct it on the page."
                self._commit(replace(state, panel=first), "panel", message)
                return
        self._commit(replace(state, panel=panel.next_side(names)), "panel")

    def _cancel(self, state: TableState) -> None:
        job = self._scan_job
        if state.panel.busy and job is not None:
            job.cancelled.set()
            message = "The scan is cancelled."
        elif state.panel.confirming:
            message = "The deal is not recorded: scan, correct, or press NEXT to confirm."
        else:
            message = None
        self._commit(replace(state, panel=state.panel.cleared()), "panel", message)

    # --- scanning ----------------------------------------------------------------------------

    def scan(self, mode: str | None = None, side: str | None = None) -> dict:
        """Scan the table with the camera; the scan's view once it is recorded. :class:`Busy`
        while another scan runs; :class:`CannotScan` when the camera fails or no frame can be
        read (nothing is recorded then)."""
        if mode is not None:
            check_mode(mode)
        done: Future = Future()

        def start() -> None:
            self._start_scan(mode, side, self._camera_job, done)

        self._call(start)
        return done.result(timeout=SCAN_TIMEOUT_S)

    def upload(self, data: bytes, mode: str | None = None, side: str | None = None) -> dict:
        """Scan a photo sent from a phone. The picture is checked before anything else:
        :class:`BadUpload` for one that is not a picture, and nothing is recorded."""
        if mode is not None:
            check_mode(mode)
        image = decode_upload(data)
        done: Future = Future()

        def job(settings) -> tuple[Any, bytes]:
            from scanner.table.scan import frame_from_image, read_frames

            frame = frame_from_image(image, "photo")
            return read_frames([frame], self.recogniser, replace(settings, frames=1)), data

        self._call(lambda: self._start_scan(mode, side, job, done))
        return done.result(timeout=SCAN_TIMEOUT_S)

    def _start_scan(self, mode: str | None, side: str | None, job, done: Future) -> None:
        state = self._state
        if state.panel.busy:
            raise Busy()
        mode = mode or state.panel.mode
        side = side if side is not None else state.panel.side
        if side is not None:
            self._check_side(state, side)
        task = ScanJob(
            mode=mode,
            side=side if state.game else None,
            game_id=state.game.id if state.game else None,
            deal=state.deal,
            score_deal=state.deal or (state.rules.deals if state.game else 1),
            rules=state.rules,
        )
        panel = replace(state.panel, mode=mode, side=side).scanning()
        self._scan_job = task
        self._commit(replace(state, panel=panel), "busy", "Scanning the table…")
        self._scanner.submit(self._scan_thread, task, job, done)

    def _camera_job(self, settings) -> tuple[Any, None]:
        from scanner.table.scan import scan_source

        try:
            self.camera.show_for(settings.mode.value)
            scan = scan_source(self.camera.source, self.recogniser, settings)
        except CameraError as error:
            self.camera.captured(str(error))
            raise CannotScan(f"The camera did not answer: {error}", code=1) from None
        self.camera.captured(None)
        return scan, None

    def _scan_thread(self, task: ScanJob, job, done: Future) -> None:
        """On the scan thread: take and read the frames, keep the scan, then hand the result
        to the worker."""
        try:
            record = self._record_scan(task, job)
            outcome: ScanRecord | ServiceError = record
        except ServiceError as error:
            outcome = error
        except Exception as error:
            log.exception("scan failed")
            outcome = CannotScan(
                f"The scan failed inside handfoot ({type(error).__name__}); try again.", code=1
            )
        self._post(lambda: self._finish_scan(task, outcome, done))

    def _record_scan(self, task: ScanJob, job) -> ScanRecord:
        from scanner.table.annotate import annotate_table
        from scanner.table.modes import Mode
        from scanner.table.scan import ScanSettings

        settings = ScanSettings(
            mode=Mode(task.mode), rules=task.rules, deal=task.score_deal, frames=self.frames
        )
        scan, original = job(settings)
        if scan.result is None or scan.shown is None:
            raise Unreadable(
                f"No picture could be read: {scan.message or 'check the camera'}.", code=2
            )
        if task.cancelled.is_set():
            raise NotNow("The scan was cancelled.")
        reading = readings.reading_from_result(
            scan.result,
            frames=len(scan.frames),
            frames_read=sum(r is not None for r in scan.readings),
        )
        shown = scan.shown.image
        annotated = encode_jpeg(annotate_table(shown, scan.result, scan.vote.readings))
        log.info(
            "scan (%s, side %s): %d cards, %d to check, %.0f ms",
            task.mode,
            task.side,
            sum(1 for _ in readings.all_cards(reading)),
            len(readings.check_cards(reading)),
            scan.timing_ms.get("total", 0.0),
        )
        return self.store.add_scan(
            mode=task.mode,
            image=original if original is not None else encode_jpeg(shown),
            reading=reading,
            annotated=annotated,
            game_id=task.game_id,
            deal_number=task.deal,
            side=task.side,
        )

    def _finish_scan(self, task: ScanJob, outcome: ScanRecord | ServiceError, done) -> None:
        state = self._state
        if self._scan_job is task:
            self._scan_job = None
        if task.cancelled.is_set():  # the panel already shows the cancel
            done.set_exception(NotNow("The scan was cancelled."))
            return
        if isinstance(outcome, ServiceError):
            code = outcome.code if isinstance(outcome, CannotScan) else 1
            self._commit(replace(state, panel=state.panel.failed(code)), "scan", str(outcome))
            done.set_exception(outcome)
            return
        # The game may have moved on while the camera worked: then the scan is only shown.
        attach = (
            state.game is not None and task.game_id == state.game.id and task.deal == state.deal
        )
        new = self._attach(
            state, outcome, outcome.reading, task.rules, task.score_deal, attach=attach
        )
        view = new.views[outcome.id]
        panel = state.panel.showing(
            panel_points(view), legal=view["legal"], check=view["check_count"] > 0
        )
        new = replace(new, last_scan=outcome.id, panel=panel)
        self._commit(self._pruned(new), "scan", scan_sentence(view))
        done.set_result(view)

    def _attach(
        self,
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

    @staticmethod
    def _pruned(state: TableState) -> TableState:
        keep = state.working_scans()
        return replace(state, views={k: v for k, v in state.views.items() if k in keep})

    def lay_new_table(self) -> dict:
        """Simulated camera: clear the table and lay the next rendered one."""

        def apply() -> dict:
            if self._state.panel.busy:
                raise Busy()
            number = self.camera.lay_new_table(self._state.panel.mode)
            self._commit(self._state, "camera", "A new table is laid out: press Scan.")
            return {"table": number}

        return self._call(apply)

    # --- corrections -------------------------------------------------------------------------

    def correct(self, scan_id: int, action: str, detail: dict) -> dict:
        """Change a card's code, move it, add a missed card, delete a phantom, or accept an
        unsure card; the correction is kept with the scan and the result recomputed."""

        def apply() -> dict:
            record = self._scan_record(scan_id)
            rules, deal = self._rules_of(record)
            if record.reading.get("format") != readings.FORMAT:
                raise NotNow(f"Scan {scan_id} was not made at the table; it cannot be corrected.")
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
                self._commit(new, "correction", f"Scan {scan_id} corrected: {scan_sentence(view)}")
            return view

        return self._call(apply)

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

    # --- the end of a deal -------------------------------------------------------------------

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
            state = self._require_deal()
            work = self._check_side(state, name)
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
        return self._preview(self._require_deal())

    def _preview(self, state: TableState) -> dict:
        assert state.game is not None and state.deal is not None
        ends, checks, warnings = [], [], []
        for work in state.sides:
            table = self._reading(state, work.table_scan)
            leftovers = self._reading(state, work.leftovers_scan)
            if table is None:
                warnings.append(f"{work.name} has no table scan: their table counts as empty.")
            if leftovers is None and not work.typed_hand and not work.went_out:
                warnings.append(f"{work.name} has no leftovers: scan them or type them in.")
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
            "checks": checks,
            "warnings": warnings,
            "scan_ids": [
                i for work in state.sides for i in (work.table_scan, work.leftovers_scan) if i
            ],
        }

    @staticmethod
    def _reading(state: TableState, scan_id: int | None) -> dict | None:
        if scan_id is None or scan_id not in state.views:
            return None
        return state.views[scan_id]["reading"]

    def confirm(self, *, accept_checks: bool = False) -> dict:
        """Record the deal. Refused while cards are still marked check (unless the players
        accept them as read) or while the engine says the deal cannot have happened."""
        return self._call(lambda: self._record_deal(accept_checks=accept_checks))

    def _record_deal(self, *, accept_checks: bool, from_panel: bool = False) -> dict:
        """Confirm on the worker: the page's Confirm, or the panel's second NEXT."""
        state = self._require_deal()
        if state.panel.busy:
            raise Busy()
        preview = self._preview(state)
        if preview["checks"] and not accept_checks:
            count = len(preview["checks"])
            raise NotNow(
                f"{count} card{'s are' if count > 1 else ' is'} still marked check: tap "
                "each to correct or accept it, or confirm with the cards as read."
            )
        if not preview["possible"]:
            problems = preview["problems"]
            shown = "; ".join(problems[:3])
            more = f" (and {len(problems) - 3} more: see the preview)" if len(problems) > 3 else ""
            raise NotNow(f"This deal cannot have happened: {shown}{more}.")
        assert state.game is not None and state.deal is not None
        record = self.store.confirm_deal(
            state.game.id, state.deal, preview["deal"], preview["result"], preview["scan_ids"]
        )
        new = self._resume(state.game, state.rules, state.panel)
        if from_panel:
            new = replace(new, panel=new.panel.recorded())
        totals = ", ".join(f"{team['name']} {team['total']}" for team in preview["result"]["teams"])
        message = f"Deal {record.number} is recorded: {totals}."
        if new.finished:
            message += " The game is over" + (f": {new.winner} wins." if new.winner else ".")
        self._commit(new, "deal", message)
        return record.to_json()

    def undo(self) -> dict:
        """Take back the last recorded deal: it becomes the deal in progress again, with its
        scans and flags, ready to correct and confirm."""

        return self._call(lambda: self._undo(self._state))

    def _undo(self, state: TableState, *, from_panel: bool = False) -> dict:
        """Undo on the worker: the page's Undo, or the panel's NEXT held."""
        if state.game is None:
            raise NotNow("There is no game yet: start one first.")
        if state.panel.busy:
            raise Busy()
        record = self.store.undo_last_deal(state.game.id)
        if record is None:
            raise NotNow("No deal of this game is recorded yet: there is nothing to undo.")
        new = self._resume(state.game, state.rules, state.panel)
        new = self._reopen(new, record)
        if from_panel:
            new = replace(new, panel=new.panel.undone())
        self._commit(new, "deal", f"Deal {record.number} is undone: correct it and confirm.")
        return record.to_json()

    def _reopen(self, state: TableState, record: DealRecord) -> TableState:
        state = replace(state, views={}, sides=tuple(side.fresh() for side in state.sides))
        for scan_id in record.scan_ids:
            scan = self.store.scan(scan_id)
            state = self._attach(state, scan, scan.reading, state.rules, record.number)
        teams = {team["name"]: team for team in record.deal.get("teams", [])}
        for work in state.sides:
            team = teams.get(work.name)
            if team is None:
                continue
            scanned = self._leftover_codes(state, work.leftovers_scan)
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

    def _leftover_codes(self, state: TableState, scan_id: int | None) -> list[str]:
        reading = self._reading(state, scan_id)
        return readings.codes(reading["leftovers"]) if reading else []

    def _require_deal(self) -> TableState:
        state = self._state
        if state.game is None:
            raise NotNow("There is no game yet: start one first.")
        if state.deal is None:
            raise NotNow("The game is over: every deal is recorded. Start a new game to play on.")
        return state

    @staticmethod
    def _check_side(state: TableState, name: str) -> SideWork:
        work = state.side(name)
        if work is None:
            known = ", ".join(state.side_names) or "none: start a game first"
            raise NoSuchThing("side", f"{name!r} in this game (the sides are {known})")
        return work

    # --- reading the record ------------------------------------------------------------------

    def games(self) -> list[dict]:
        """Every game, newest first, with its totals and winner."""
        return history.games(self.store)

    def game(self, game_id: int) -> dict:
        """One game: its summary, every deal's breakdown and its scans."""
        return history.game(self.store, game_id)

    def health(self) -> dict:
        storage = self.store.health()
        camera = self.camera.health()
        models = {"ok": self.recogniser is not None}
        contract = getattr(self.recogniser, "contract", None)
        if contract is not None:
            models["classes"] = len(contract.classes)
        panel = {"ok": self.running, "kind": self.panel_kind, **self._state.panel.to_json()}
        ok = storage["ok"] and camera["ok"] and models["ok"] and panel["ok"]
        return {"ok": ok, "camera": camera, "models": models, "storage": storage, "panel": panel}

    def state_json(self) -> dict:
        """The table now, as the page shows it."""
        camera = {"spec": self.camera.spec, "simulated": self.camera.simulated}
        return state_json(self._state, camera)

    @staticmethod
    def rules_json(rules: RuleSet) -> dict:
        return rules_json(rules)

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

    def export(self, game_id: int, kind: str) -> dict | str:
        """A game as JSON (a dict) or CSV (text), for keeping or a spreadsheet."""
        return history.export(self.store, game_id, kind)

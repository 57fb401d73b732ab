"""Scanning: the camera's scans and photos sent from a phone.

A scan runs on its own thread, one at a time, so the worker stays free for corrections and reads
while the camera works; a second press while one runs is answered "busy". The scan thread keeps
the scan in the store, then hands the result to the worker, which alone changes the state.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from engine import RuleSet
from scanner.camera import CameraError
from scanner.service import reading as readings
from scanner.service.camera import TableCamera
from scanner.service.checks import check_mode
from scanner.service.errors import Busy, CannotScan, NotNow, ServiceError, Unreadable
from scanner.service.images import decode_upload, encode_jpeg
from scanner.service.panel import STORAGE_FAULT
from scanner.service.said import SENTENCES, Said
from scanner.service.views import panel_points, scan_sentence
from scanner.service.worker import Worker
from scanner.service.working import check_side, pruned, with_scan
from scanner.store import ScanRecord, StorageFault, Store

log = logging.getLogger(__name__)

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
    deck: str | None = None  # the taught deck the game's scans are read with
    # Set when the panel's SCAN is held: the result is dropped, nothing is recorded.
    cancelled: threading.Event = field(default_factory=threading.Event, compare=False, repr=False)


class Scanning(Worker):
    """Scans from the camera and from uploaded photos, one at a time."""

    store: Store
    recogniser: Any
    camera: TableCamera
    frames: int
    _scanner: ThreadPoolExecutor
    _scan_job: ScanJob | None  # the scan under way (worker only)
    deck_reader: Callable[[str | None], Any]  # the reader of a taught deck (``decks.py``)

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

        def job(settings, reader) -> tuple[Any, bytes]:
            from scanner.table.scan import frame_from_image, read_frames

            frame = frame_from_image(image, "photo")
            return read_frames([frame], reader, replace(settings, frames=1)), data

        self._call(lambda: self._start_scan(mode, side, job, done))
        return done.result(timeout=SCAN_TIMEOUT_S)

    def lay_new_table(self) -> dict:
        """Simulated camera: clear the table and lay the next rendered one."""

        def apply() -> dict:
            if self._state.panel.busy:
                raise Busy()
            number = self.camera.lay_new_table(self._state.panel.mode)
            self._commit(self._state, "camera", Said.of("new_table"))
            return {"table": number}

        return self._call(apply)

    def _start_scan(self, mode: str | None, side: str | None, job, done: Future) -> None:
        state = self._state
        if state.panel.busy:
            raise Busy()
        mode = mode or state.panel.mode
        side = side if side is not None else state.panel.side
        if side is not None:
            check_side(state, side)
        task = ScanJob(
            mode=mode,
            side=side if state.game else None,
            game_id=state.game.id if state.game else None,
            deal=state.deal,
            score_deal=state.deal or (state.rules.deals if state.game else 1),
            rules=state.rules,
            deck=state.game.deck if state.game else None,
        )
        panel = replace(state.panel, mode=mode, side=side).scanning()
        self._scan_job = task
        self._commit(replace(state, panel=panel), "busy", Said.of("scanning"))
        self._scanner.submit(self._scan_thread, task, job, done)

    def _camera_job(self, settings, reader) -> tuple[Any, None]:
        from scanner.table.scan import scan_source

        try:
            self.camera.show_for(settings.mode.value)
            scan = scan_source(self.camera.source, reader, settings)
        except CameraError as error:
            self.camera.captured(str(error))
            raise CannotScan(Said.of("camera_silent", error=str(error)), code=1) from None
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
        except StorageFault as error:  # the disk, not the camera: its own panel code
            outcome = CannotScan(str(error), code=STORAGE_FAULT)
        except Exception as error:
            log.exception("scan failed")
            outcome = CannotScan(Said.of("scan_failed", error=type(error).__name__), code=1)
        self._post(lambda: self._finish_scan(task, outcome, done))

    def _record_scan(self, task: ScanJob, job) -> ScanRecord:
        from scanner.table.annotate import annotate_table
        from scanner.table.modes import Mode
        from scanner.table.scan import ScanSettings

        settings = ScanSettings(
            mode=Mode(task.mode), rules=task.rules, deal=task.score_deal, frames=self.frames
        )
        scan, original = job(settings, self.deck_reader(task.deck))
        if scan.result is None or scan.shown is None:
            why = Said.of("check_the_camera")
            if scan.quality is not None and f"quality_{scan.quality.kind}" in SENTENCES:
                why = Said.of(f"quality_{scan.quality.kind}")
            elif scan.message:
                why = scan.message
            raise Unreadable(Said.of("unreadable", why=why), code=2)
        if task.cancelled.is_set():
            raise NotNow(Said.of("scan_cancelled"))
        reading = readings.reading_from_result(
            scan.result,
            frames=len(scan.frames),
            frames_read=sum(r is not None for r in scan.readings),
            index_px=scan.index_px,
            small_px=scan.small_px,
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
            done.set_exception(NotNow(Said.of("scan_cancelled")))
            return
        if isinstance(outcome, ServiceError):
            code = outcome.code if isinstance(outcome, CannotScan) else 1
            said = outcome.said or str(outcome)
            self._commit(replace(state, panel=state.panel.failed(code)), "scan", said)
            done.set_exception(outcome)
            return
        # The game may have moved on while the camera worked: then the scan is only shown.
        attach = (
            state.game is not None and task.game_id == state.game.id and task.deal == state.deal
        )
        new = with_scan(state, outcome, outcome.reading, task.rules, task.score_deal, attach=attach)
        view = new.views[outcome.id]
        panel = state.panel.showing(
            panel_points(view), legal=view["legal"], check=view["check_count"] > 0
        )
        new = replace(new, last_scan=outcome.id, panel=panel, chosen=False)
        self._commit(pruned(new), "scan", scan_sentence(view))
        done.set_result(view)

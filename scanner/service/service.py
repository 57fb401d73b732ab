"""The table's state machine: what a button on the panel or an action on the page does.

One worker thread owns the state (:mod:`scanner.service.worker`). Every operation, whoever asks
(a page's request on a web thread, a panel button on gpiozero's thread), is a command put on one
queue; the worker applies them in order and publishes each change to the listeners
(:attr:`TableService.events`). A scan runs on its own thread, one at a time, so the worker stays
free for corrections and reads while the camera works; a second press while one runs is
answered "busy" (:mod:`scanner.service.scanning`).

The commands live with what they are about: games (:mod:`~scanner.service.games`), the panel's
buttons (:mod:`~scanner.service.buttons`), scanning, corrections
(:mod:`~scanner.service.corrections`), the end of a deal (:mod:`~scanner.service.deal_end`) and
teaching a deck (:mod:`~scanner.service.decks`).
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from engine import RuleSet
from scanner.decks.profiles import Profiles
from scanner.service.buttons import Buttons
from scanner.service.camera import TableCamera
from scanner.service.corrections import Corrections
from scanner.service.decks import Decks, Lessons
from scanner.service.games import Games
from scanner.service.panel import CAMERA_FAULT, STORAGE_FAULT
from scanner.service.scanning import ScanJob
from scanner.service.state import TableState
from scanner.service.views import rules_json, state_json
from scanner.store import Store

log = logging.getLogger(__name__)


class TableService(Games, Buttons, Corrections, Decks):
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
        super().__init__()
        self._scanner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scan")
        self._scan_job: ScanJob | None = None  # the scan under way (worker only)
        self._lessons = Lessons()  # decks photographed, waiting for the players' word
        self._profiles = Profiles(store, recogniser)

    def start(self) -> None:
        """Pick up the newest game where it was left (its working scans too), then start the
        worker."""
        if self._worker is not None:
            return
        self._start_worker(self._with_faults(self._restore()))
        log.info("table service started (game %s)", self._state.game and self._state.game.id)

    def _with_faults(self, state: TableState) -> TableState:
        """The table at start, showing on the panel what the start-up checks found: the
        camera opened (and a frame taken), the disk written to."""
        camera = self.camera.check()
        if self.store.fault is not None:
            return replace(
                state, panel=state.panel.failed(STORAGE_FAULT), message=str(self.store.fault)
            )
        if camera is not None:
            message = camera[:1].upper() + camera[1:] + "."
            return replace(state, panel=state.panel.failed(CAMERA_FAULT), message=message)
        return state

    def stop(self) -> None:
        if self._worker is None:
            return
        # A scan under way finishes first: its result goes through the worker.
        self._scanner.shutdown(wait=True, cancel_futures=True)
        self._stop_worker()
        log.info("table service stopped")

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

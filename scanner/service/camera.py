"""The table's camera as the service holds it: the source a ``--camera`` value names, wrapped
so it reopens after a failure, and, for the simulated camera, a table that matches the game's
deck and a way to lay the next one."""

from __future__ import annotations

import logging
import threading
from typing import Any

import numpy as np

from engine import Deck
from scanner.camera import (
    FrameSource,
    ReliableSource,
    SyntheticSource,
    open_source,
    parse_spec,
)
from scanner.service.errors import NotNow
from scanner.service.said import Said

log = logging.getLogger(__name__)
DEVICES = ("webcam", "picamera2")
LAYOUT_FOR_MODE = {"meld": "side", "table": "side", "leftovers": "leftovers"}
# what the simulated camera keeps of its own options for the decks it lays out to teach
TEACH_OPTIONS = ("size", "split")


class TableCamera:
    """``spec`` is a ``--camera`` value (checked here: :class:`BadSpecError` when it names no
    camera). Nothing is opened until the first scan."""

    def __init__(self, spec: str, **options: Any) -> None:
        self.spec = spec
        self.kind = parse_spec(spec).kind
        self._options = options
        self._deck: Deck | None = None
        self._lock = threading.Lock()
        self._source: ReliableSource = ReliableSource(self._open())
        self._teaching: dict[str, SyntheticSource] = {}  # simulated: a laid-out deck per kind
        self.last_error: str | None = None

    @property
    def simulated(self) -> bool:
        return self.kind == "synthetic"

    def _open(self) -> FrameSource:
        options = dict(self._options)
        if self.simulated and self._deck is not None:
            # Rendered tables of the deck the game plays, so every card can count.
            options.setdefault("deck", self._deck.value)
        return open_source(self.spec, **options)

    @property
    def source(self) -> ReliableSource:
        with self._lock:
            return self._source

    def use_deck(self, deck: Deck) -> None:
        """A new game's deck: the simulated camera starts rendering tables of it."""
        if not self.simulated or deck is self._deck:
            return
        with self._lock:
            self._deck = deck
            old, self._source = self._source, ReliableSource(self._open())
        old.close()
        log.info("simulated camera now lays tables of the %s", deck.title)

    def lay_new_table(self, mode: str | None = None) -> int:
        """Simulated camera only: clear the table and lay the next one (what ``mode`` scans,
        when given); its number."""
        inner = self.source.source
        if not isinstance(inner, SyntheticSource):
            raise NotNow(Said.of("real_camera"))
        inner.advance(layout=LAYOUT_FOR_MODE.get(mode or "", inner.layout))
        return inner.table

    def show_for(self, mode: str) -> None:
        """Simulated camera: players put under the camera what ``mode`` scans (a side's melds
        for table and meld checks, the cards left in a hand for leftovers); when the table shows
        the other kind, lay the next table of the right kind. A real camera: nothing."""
        inner = self.source.source
        wanted = LAYOUT_FOR_MODE.get(mode)
        if isinstance(inner, SyntheticSource) and wanted and inner.layout != wanted:
            inner.advance(layout=wanted)
            log.info("simulated camera: table %d shows %s", inner.table, wanted)

    def photo_to_teach(self, layout: str) -> np.ndarray:
        """One frame of the table with a deck laid out as ``layout`` (``scanner/decks``), from
        the camera the scans use. The simulated camera renders a deck of that kind laid out,
        on a table of its own (the scans' table stays as it was), a fresh one each time.
        Raises :class:`~scanner.camera.CameraError` when no frame comes."""
        if not self.simulated:
            return self.source.capture().image
        with self._lock:
            source = self._teaching.get(layout)
            if source is None:
                options = {k: v for k, v in self._options.items() if k in TEACH_OPTIONS}
                source = open_source(self.spec, **options, deck=layout, layout="teach")
                assert isinstance(source, SyntheticSource)
                self._teaching[layout] = source
            else:
                source.advance()
        return source.capture().image

    def check(self) -> str | None:
        """Open the camera and, when it is a device (a webcam, the Pi camera), take a frame,
        so that a camera that is not there is known from the start; the problem, or None.
        Files and rendered tables are only opened: their frames are the scans'."""
        from scanner.camera import CameraError

        source = self.source
        try:
            source.open()
            if self.kind in DEVICES:
                source.source.capture()
        except CameraError as error:
            self.captured(f"the camera '{self.spec}' does not answer: {error}")
            log.error("camera %s: %s", self.spec, error)
        except OSError as error:
            self.captured(f"the camera '{self.spec}' cannot be opened: {error}")
            log.error("camera %s: %s", self.spec, error)
        else:
            self.captured(None)
        return self.last_error

    def captured(self, error: str | None) -> None:
        """Remember how the last capture went, for the health report."""
        self.last_error = error

    def health(self) -> dict:
        described = self.source.describe()
        return {
            "ok": self.last_error is None,
            "spec": self.spec,
            "kind": self.kind,
            "simulated": self.simulated,
            "open": bool(described.get("open", self.source.is_open)),
            "error": self.last_error,
        }

    def close(self) -> None:
        self.source.close()
        with self._lock:
            teaching, self._teaching = list(self._teaching.values()), {}
        for source in teaching:
            source.close()

"""Rendered tables as a camera: play, test and demonstrate without one.

The source shows one table until :meth:`SyntheticSource.advance` lays the next. Each capture
of a table is a new shot of it: the same cards in the same places, with fresh sensor noise,
JPEG and a slightly different exposure, as a real camera gives a few seconds apart, so that
voting over several frames has something to vote on. Every frame carries the scene's labels
as ``Frame.truth``.

What lies on the table is the ``layout``: ``"side"`` (the default) is one side's legal melds
and red threes, all in view, as a camera above a real table sees them in table mode;
``"leftovers"`` the cards left in a hand, spread out for counting; ``"training"`` the busy
tables the recogniser trains on (players on every side, cards off the frame, props on top);
``"teach"`` a whole deck laid out in rows to teach it (``scanner/decks/layouts.py``).
``advance(layout="leftovers")`` lays the next table in another layout, and it stays the
layout until changed again.

>>> source = SyntheticSource("synthetic:7", 7, size=(640, 480))
>>> source.layout
'side'
>>> source.advance(layout="leftovers")
>>> source.table, source.layout
(1, 'leftovers')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from scanner.camera.errors import BadSpecError
from scanner.camera.source import Picture, SourceBase

DECKS = ("both", "standard", "special")
SPLITS = ("test", "train")
DEFAULT_SIZE = (1280, 960)
LAYOUTS = ("side", "leftovers", "training", "teach")


class SyntheticSource(SourceBase):
    """Tables from ``model.synth.scene.render_scene(seed, table, shot=…, layout=…)``; ``deck``,
    ``split`` and ``layout`` as there (the test split uses card designs and tables the
    recogniser never trained on; ``layout`` is one of ``LAYOUTS``, default ``"side"``)."""

    kind = "synthetic"

    def __init__(
        self,
        spec: str,
        seed: int = 0,
        *,
        size: tuple[int, int] = DEFAULT_SIZE,
        deck: str = "both",
        split: str = "test",
        layout: str = "side",
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(spec, clock=clock)
        if deck not in DECKS:
            raise BadSpecError(f"deck must be one of {', '.join(DECKS)}, not {deck!r}.", spec=spec)
        if split not in SPLITS:
            raise BadSpecError(
                f"split must be one of {', '.join(SPLITS)}, not {split!r}.", spec=spec
            )
        _check_layout(layout, spec)
        self.seed, self.size, self.deck, self.split = seed, size, deck, split
        self._layout = layout
        self._table = 0
        self._shot = 0
        self._render: Callable[..., Any] | None = None

    @property
    def table(self) -> int:
        """The scene index on show."""
        return self._table

    @property
    def shot(self) -> int:
        """The shot the next capture takes of this table."""
        return self._shot

    @property
    def layout(self) -> str:
        """What lies on the table on show (one of ``LAYOUTS``)."""
        return self._layout

    def advance(self, layout: str | None = None) -> None:
        """Clear the table and lay the next one: the next capture shows scene ``table + 1``,
        in ``layout`` when given (it stays until changed), else in the layout of the last."""
        if layout is not None:
            _check_layout(layout, self.spec)
        with self._lock:
            self._table += 1
            self._shot = 0
            if layout is not None:
                self._layout = layout

    def _open(self) -> None:
        # Imported here: the renderer draws card faces and textures, which a Pi running the
        # real camera never needs.
        from model.synth.scene import render_scene

        self._render = render_scene

    def _capture(self, number: int) -> Picture:
        assert self._render is not None  # open() ran
        scene = self._render(
            self.seed,
            self._table,
            split=self.split,
            deck=self.deck,
            size=self.size,
            shot=self._shot,
            layout=self._layout,
        )
        picture = Picture(
            scene.image, f"synthetic table {self._table} shot {self._shot}", scene.labels
        )
        self._shot += 1
        return picture

    def _close(self) -> None:
        self._render = None

    def _details(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "table": self._table,
            "next_shot": self._shot,
            "layout": self._layout,
        }


def _check_layout(layout: str, spec: str) -> None:
    if layout not in LAYOUTS:
        raise BadSpecError(
            f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}.", spec=spec
        )

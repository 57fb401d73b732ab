"""What the panel's LEDs, 4-digit display and buzzer show for a :class:`PanelState`: pure
functions, no gpiozero, so the page draws exactly what the board (``hardware/``) shows and tests
need no pins.

The display's four cells are keys of gpiozero's 7-segment font (digits, a space, ``-`` and
the capitals it has; ``E``, ``R``, ``N``, ``D``, ``O``, ``U`` light as ``E r n d o U``), a
cell ending in ``.`` also lights that digit's decimal point.

- a number: right-aligned, ``-`` in front of a negative one: ``570`` → `` 570``, ``-55`` →
  `` -55``. From -999 to 9999 every number is shown exactly. Beyond, the display saturates
  at ``9999`` or ``-999`` and lights the last decimal point: "at least this much" (a deal
  total beyond either is rare; the page shows the exact number).
- while a scan runs: ``----``; after an error: ``Err`` and its code (``Err1``).
- nothing to show: ``P  2`` for the side the next scan is for (the second side of the game as
  the page lists them), blank before a game has sides.
- NEXT asking to record the deal: `` End``; recorded: ``donE``; undone: ``undo``.

LEDs: ``on``, ``off``, ``blink`` (scanning; the light of a question NEXT asks) or ``fast``
(amber on a fault the camera reports: Err 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scanner.service.panel import LIGHTS, MODES, PanelState

WIDTH = 4
LOW, HIGH = -(10 ** (WIDTH - 1) - 1), 10**WIDTH - 1  # -999 .. 9999
BLANK = (" ",) * WIDTH
BUSY = ("-",) * WIDTH
WORDS = {"End": " END", "donE": "DONE", "undo": "UNDO"}
FAULTS = {1, 6}  # Err codes that make amber blink fast: the camera or the disk failed
SEGMENT_DASH = (0, 0, 0, 0, 0, 0, 1)  # "-": segment g alone; gpiozero's font has no dash

LED_STATES = ("off", "on", "blink", "fast")


@dataclass(frozen=True)
class Face:
    """The display's cells and each LED's state (``on``, ``off``, ``blink``, ``fast``)."""

    cells: tuple[str, ...]
    leds: dict[str, str]

    @property
    def text(self) -> str:
        """The cells as one string, decimal points in place: ``" 570"``, ``"9999."``."""
        return "".join(self.cells)

    def to_json(self) -> dict:
        return {"display": self.text, "cells": list(self.cells), "leds": dict(self.leds)}


def number_cells(points: int, *, dp: bool = True) -> tuple[str, ...]:
    """A number on the 4 digits.

    >>> number_cells(570), number_cells(-55), number_cells(0)
    ((' ', '5', '7', '0'), (' ', '-', '5', '5'), (' ', ' ', ' ', '0'))
    >>> number_cells(9999), number_cells(12345), number_cells(-1500)
    (('9', '9', '9', '9'), ('9', '9', '9', '9.'), ('-', '9', '9', '9.'))
    >>> number_cells(12345, dp=False)
    ('9', '9', '9', '9')
    """
    shown = str(max(LOW, min(HIGH, points)))
    cells = tuple(shown.rjust(WIDTH))
    if dp and not LOW <= points <= HIGH:
        cells = (*cells[:-1], cells[-1] + ".")
    return cells


def text_cells(text: str) -> tuple[str, ...]:
    """Text the display can show, right-aligned; a character it cannot show is a blank.

    >>> text_cells("Err1"), text_cells("End"), text_cells("P  2")
    (('E', 'R', 'R', '1'), (' ', 'E', 'N', 'D'), ('P', ' ', ' ', '2'))
    """
    word = WORDS.get(text, text).upper()[-WIDTH:]
    return tuple(c if c in SHOWABLE else " " for c in word.rjust(WIDTH))


SHOWABLE = set("0123456789 -ABCDEFGHIJLNOPQRSTUY")


def cells_for(panel: PanelState, side_number: int | None, *, dp: bool = True) -> tuple[str, ...]:
    """The display for ``panel``; ``side_number`` is the 1-based position of its side."""
    if panel.busy:
        return BUSY
    shown = panel.display
    if shown in ("----", "...."):
        if side_number is None:
            return BLANK
        return text_cells(f"P{str(side_number).rjust(WIDTH - 1)}")
    if shown.startswith("Err"):
        return text_cells("Err" + shown[3:].strip())
    try:
        return number_cells(int(shown), dp=dp)
    except ValueError:
        return text_cells(shown)


def leds_for(panel: PanelState) -> dict[str, str]:
    """Each LED's state: one mode LED on; green, amber and red from the panel's light."""
    leds = {mode: "on" if mode == panel.mode else "off" for mode in MODES}
    lights = {light: "off" for light in LIGHTS if light != "off"}
    if panel.busy:
        lights["amber"] = "blink"
    elif panel.light != "off":
        lights[panel.light] = "blink" if panel.confirming else "on"
    if _error_code(panel) in FAULTS:
        lights["amber"] = "fast"
    return leds | lights


def face(panel: PanelState, side_number: int | None = None, *, dp: bool = True) -> Face:
    """Everything the panel shows for ``panel``."""
    return Face(cells_for(panel, side_number, dp=dp), leds_for(panel))


def state_face(state: Any, *, dp: bool = True) -> Face:
    """The face for the table's state (a ``TableState``: its panel, and the position of the
    panel's side among the game's sides)."""
    panel: PanelState = state.panel
    names = list(state.side_names)
    number = names.index(panel.side) + 1 if panel.side in names else None
    return face(panel, number, dp=dp)


def beeps(before: PanelState | None, after: PanelState) -> str | None:
    """What the buzzer sounds when the panel goes from ``before`` to ``after``: ``"one"``
    short beep for a legal result (or a deal recorded), ``"two"`` for an illegal one, a
    ``"long"`` one for an error; None when no new verdict is shown (a MODE press, a
    scan starting, a side chosen).

    >>> scanning = PanelState().scanning()
    >>> beeps(scanning, scanning.showing(570, legal=True, check=False))
    'one'
    >>> beeps(scanning, scanning.showing(90, legal=False, check=False))
    'two'
    >>> beeps(scanning, scanning.failed(1)), beeps(None, PanelState()), beeps(scanning, scanning)
    ('long', None, None)
    """
    if before is None or after.busy or after.light == "off":
        return None
    if not before.busy and (after.display, after.light) == (before.display, before.light):
        return None
    if after.display.startswith("Err"):
        return "long"
    return "two" if after.light == "red" else "one"


def _error_code(panel: PanelState) -> int | None:
    if panel.busy or not panel.display.startswith("Err"):
        return None
    try:
        return int(panel.display[3:])
    except ValueError:
        return None

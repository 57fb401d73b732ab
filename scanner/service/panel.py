"""The LED/button panel as the service sees it: what it shows (:class:`PanelState`) and what
its buttons do (:class:`Button`).

The service keeps one ``PanelState`` and publishes every change. A panel, the page's drawn
one or the gpiozero board, only listens for those changes and posts button presses
(``TableService.press(Button.SCAN)``); it never decides anything itself.

Display: the last scan's points (``570``, ``-55``), ``----`` with nothing to show, ``....``
while scanning, ``Err N`` when a scan failed (see :data:`ERRORS`). Light: green when the last
scan is legal and sure, amber when cards need checking or a scan runs, red when a meld is
illegal or a scan failed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import Enum

MODES = ("table", "leftovers", "meld")
LIGHTS = ("off", "green", "amber", "red")
ERRORS = {
    1: "the camera did not answer",
    2: "the picture could not be read: more light, or hold still",
    3: "no cards were seen",
}
PANEL_KINDS = ("simulated", "gpio")


class Button(Enum):
    SCAN = "scan"  # scan the table in the panel's mode, for the chosen side
    MODE = "mode"  # next mode: table, leftovers, meld
    NEXT = "next"  # next side


@dataclass(frozen=True)
class PanelState:
    """What the panel shows. ``mode`` lights one of the mode LEDs; ``side`` is the side the
    next scan is for."""

    mode: str = "table"
    side: str | None = None
    light: str = "off"
    display: str = "----"
    busy: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"panel mode {self.mode!r} is not one of {MODES}")
        if self.light not in LIGHTS:
            raise ValueError(f"panel light {self.light!r} is not one of {LIGHTS}")

    @property
    def leds(self) -> dict[str, bool]:
        """Mode LEDs, one per mode, and the three state LEDs."""
        return {mode: mode == self.mode for mode in MODES} | {
            light: light == self.light for light in LIGHTS if light != "off"
        }

    def next_mode(self) -> PanelState:
        return replace(self, mode=MODES[(MODES.index(self.mode) + 1) % len(MODES)])

    def next_side(self, sides: list[str]) -> PanelState:
        if not sides:
            return replace(self, side=None)
        at = sides.index(self.side) if self.side in sides else -1
        return replace(self, side=sides[(at + 1) % len(sides)])

    def scanning(self) -> PanelState:
        return replace(self, busy=True, light="amber", display="....")

    def showing(self, points: int, *, legal: bool, check: bool) -> PanelState:
        light = "red" if not legal else "amber" if check else "green"
        return replace(self, busy=False, light=light, display=display_number(points))

    def failed(self, code: int) -> PanelState:
        return replace(self, busy=False, light="red", display=f"Err {code}")

    def cleared(self) -> PanelState:
        return replace(self, busy=False, light="off", display="----")

    def to_json(self) -> dict:
        return asdict(self) | {"leds": self.leds}


def display_number(points: int) -> str:
    """Points as four 7-segment digits show them.

    >>> display_number(570), display_number(-55), display_number(12345), display_number(-1500)
    ('570', '-55', '9999', '-999')
    """
    return str(max(-999, min(9999, points)))


class PanelUnavailable(Exception):
    """``--panel gpio`` where there are no GPIO pins, or before the board is supported."""


def check_panel_kind(kind: str) -> str:
    """``simulated`` (drawn on the page) works everywhere; ``gpio`` is refused with a plain
    reason until the board's driver exists."""
    if kind == "simulated":
        return kind
    if kind != "gpio":
        raise PanelUnavailable(f"'{kind}' is not a panel: use {' or '.join(PANEL_KINDS)}.")
    if not _gpio_pins_available():
        raise PanelUnavailable(
            "The GPIO panel is not available on this machine (gpiozero finds no GPIO pins); "
            "use --panel simulated."
        )
    raise PanelUnavailable(
        "The GPIO panel is not available yet in this version of handfoot; use --panel "
        "simulated (the page shows the panel, with working buttons)."
    )


def _gpio_pins_available() -> bool:
    try:
        from gpiozero import Device  # type: ignore[import-not-found]
    except ImportError:
        return False
    try:
        Device.ensure_pin_factory()
    except Exception:  # gpiozero raises BadPinFactory and friends off a Pi
        return False
    return True

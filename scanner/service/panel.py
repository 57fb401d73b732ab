"""The LED/button panel as the service sees it: what it shows (:class:`PanelState`) and what
its buttons do (:class:`Button`).

The service keeps one ``PanelState`` and publishes every change. A panel, the page's drawn
one or the gpiozero board (``hardware/``), only listens for those changes and posts button
presses and holds (``TableService.press(Button.SCAN)``, ``TableService.hold(Button.NEXT)``);
it never decides anything itself.

Display: the last scan's points (``570``, ``-55``), ``----`` with nothing to show, ``....``
while scanning, ``Err N`` when something failed (see :data:`ERRORS`), ``End`` while NEXT
asks to confirm the deal, ``donE`` once it is recorded, ``undo`` once it is taken back.
Light: green when the last scan is legal and sure (or the deal is recorded), amber when cards
need checking or a scan runs, red when a meld is illegal or something failed. How the
4-digit display and the LEDs render this is ``display``'s business.
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
    4: "the deal cannot be recorded yet: see the page for why",
    5: "no deal of this game is recorded: there is nothing to undo",
    6: "the game record cannot be saved: the disk is full or read-only (see the page)",
}
CAMERA_FAULT = 1
STORAGE_FAULT = 6
PANEL_KINDS = ("simulated", "gpio")


class Button(Enum):
    SCAN = "scan"  # scan the table in the panel's mode, for the chosen side
    MODE = "mode"  # next mode: table, leftovers, meld
    NEXT = "next"  # next side; on the last side, once every side is scanned, confirm the deal


# What holding a button does (the others do nothing when held).
HOLDS = {Button.SCAN: "cancel", Button.NEXT: "undo"}


@dataclass(frozen=True)
class PanelState:
    """What the panel shows. ``mode`` lights one of the mode LEDs; ``side`` is the side the
    next scan is for."""

    mode: str = "table"
    side: str | None = None
    light: str = "off"
    display: str = "----"
    busy: bool = False
    confirming: bool = False  # NEXT asked "record the deal?"; a second NEXT records it

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
        mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]
        return replace(self, mode=mode, confirming=False)

    def next_side(self, sides: list[str]) -> PanelState:
        """The next side, with the display cleared (the panel then shows which side it is);
        a scan under way keeps its display."""
        if not sides:
            return replace(self, side=None)
        at = sides.index(self.side) if self.side in sides else -1
        shown = self if self.busy else self.cleared()
        return replace(shown, side=sides[(at + 1) % len(sides)], confirming=False)

    def scanning(self) -> PanelState:
        return replace(self, busy=True, light="amber", display="....", confirming=False)

    def showing(self, points: int, *, legal: bool, check: bool) -> PanelState:
        light = "red" if not legal else "amber" if check else "green"
        return replace(
            self, busy=False, light=light, display=display_number(points), confirming=False
        )

    def failed(self, code: int) -> PanelState:
        return replace(self, busy=False, light="red", display=f"Err {code}", confirming=False)

    def cleared(self) -> PanelState:
        return replace(self, busy=False, light="off", display="----", confirming=False)

    def asking(self, *, check: bool) -> PanelState:
        """NEXT on the last side with every side scanned: "record the deal?" (amber when
        cards are still marked check: a second NEXT records them as read)."""
        light = "amber" if check else "green"
        return replace(self, busy=False, light=light, display="End", confirming=True)

    def recorded(self) -> PanelState:
        return replace(self, busy=False, light="green", display="donE", confirming=False)

    def undone(self) -> PanelState:
        return replace(self, busy=False, light="green", display="undo", confirming=False)

    def to_json(self) -> dict:
        return asdict(self) | {"leds": self.leds}


def display_number(points: int) -> str:
    """Points as the panel shows them; the 4-digit display's rendering (and what it does with
    numbers it cannot fit) is ``display.number_cells``.

    >>> display_number(570), display_number(-55), display_number(12345)
    ('570', '-55', '12345')
    """
    return str(points)


class PanelUnavailable(Exception):
    """``--panel gpio`` where there are no GPIO pins."""


def check_panel_kind(kind: str | None) -> str:
    """``simulated`` (gpiozero's mock pins, drawn on the page) works everywhere; ``gpio`` needs
    the pins of a Raspberry Pi and is refused elsewhere with a plain reason. ``None``: ``gpio``
    where there are GPIO pins, else ``simulated``."""
    if kind is None:
        return "gpio" if gpio_pins_available() else "simulated"
    if kind == "simulated":
        return kind
    if kind != "gpio":
        raise PanelUnavailable(f"'{kind}' is not a panel: use {' or '.join(PANEL_KINDS)}.")
    if not gpio_pins_available():
        raise PanelUnavailable(
            "The GPIO panel is not available on this machine (gpiozero finds no GPIO pins); "
            "use --panel simulated."
        )
    return kind


def gpio_pins_available() -> bool:
    """Whether gpiozero finds real pins (a pin library and a Raspberry Pi's GPIO chip). Its
    fallback warnings are kept quiet: the answer is all a caller needs."""
    import warnings

    try:
        from gpiozero import Device  # type: ignore[import-not-found]
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-not-found]
    except ImportError:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            factory = Device.ensure_pin_factory()
    except Exception:  # gpiozero raises BadPinFactory and friends off a Pi
        return False
    return not isinstance(factory, MockFactory)

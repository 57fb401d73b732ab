"""The LED/button panel on gpiozero's mock pins: presses and holds post events to the service,
and the LEDs, the 4-digit display and the buzzer follow the service's panel state. The
service here is a small recording one we own; ``test_panel_web.py`` uses the real one."""

from __future__ import annotations

import doctest
import re
import threading
import time
from concurrent.futures import Future
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
from gpiozero import Device, LEDCharDisplay
from gpiozero.pins.mock import MockFactory

import hardware.pins
from hardware.panel import Panel
from hardware.pins import DEFAULT_FILE, PanelConfigError, PinMap, load_pin_map, pin_map_from_toml
from hardware.simulated import BoundedMockPin, SimulatedPanel
from scanner.service import Button, PanelState, SideWork, TableState, display
from scanner.service.events import Broadcaster

QUICK = replace(PinMap(), hold_s=0.1)


class RecordingService:
    """What the panel needs of the table service: it records every press and hold (and the
    thread that posted it) and shows whatever panel state a test gives it."""

    def __init__(self) -> None:
        self.events = Broadcaster()
        self.state = TableState(sides=(SideWork("Us"), SideWork("Them")))
        self.posted: list[tuple[str, Button]] = []
        self.threads: list[str] = []
        self.posted_any = threading.Event()

    def _record(self, kind: str, button: Button) -> Future:
        self.posted.append((kind, button))
        self.threads.append(threading.current_thread().name)
        self.posted_any.set()
        future: Future = Future()
        future.set_result({"kind": kind})
        return future

    def press(self, button: Button) -> Future:
        return self._record("press", button)

    def hold(self, button: Button) -> Future:
        return self._record("hold", button)

    def show(self, panel: PanelState) -> None:
        self.state = replace(self.state, panel=panel)
        self.events.publish({"kind": "panel", "version": 0})


@pytest.fixture
def factory():
    saved = Device.pin_factory
    made = MockFactory(pin_class=BoundedMockPin)
    yield made
    made.reset()
    assert Device.pin_factory is saved  # the panel never touches gpiozero's global factory
    Device.pin_factory = saved


@pytest.fixture
def service():
    return RecordingService()


@pytest.fixture
def simulated(service, factory):
    panel = SimulatedPanel(service, QUICK, factory=factory)
    panel.start()
    yield panel
    panel.close()


def lit(factory, pin: int) -> bool:
    return bool(factory.pin(pin).state)


def changes_within(factory, pin: int, seconds: float) -> int:
    factory.pin(pin).clear_states()
    time.sleep(seconds)
    return len(factory.pin(pin).states) - 1


# --- the display's rendering (pure) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "cells"),
    [
        (0, "   0"),
        (7, "   7"),
        (570, " 570"),
        (9999, "9999"),
        (-5, "  -5"),
        (-55, " -55"),
        (-999, "-999"),
        (10000, "9999."),
        (123456, "9999."),
        (-1000, "-999."),
    ],
)
def test_numbers_on_four_digits(points, cells):
    assert display.Face(display.number_cells(points), {}).text == cells
    assert len(display.number_cells(points)) == 4


def test_numbers_beyond_the_digits_without_a_decimal_point():
    assert display.number_cells(10000, dp=False) == tuple("9999")
    assert display.number_cells(-1000, dp=False) == tuple("-999")


def test_what_each_state_shows():
    idle = PanelState(side="Them")
    assert display.cells_for(idle, None) == tuple("    ")
    assert display.cells_for(idle, 2) == tuple("P  2")
    assert display.cells_for(idle.scanning(), 2) == tuple("----")
    assert display.cells_for(idle.showing(-55, legal=True, check=False), 2) == tuple(" -55")
    assert display.cells_for(idle.failed(1), 2) == tuple("ERR1")
    assert display.cells_for(idle.asking(check=False), 2) == tuple(" END")
    assert display.cells_for(idle.recorded(), 1) == tuple("DONE")
    assert display.cells_for(idle.undone(), 1) == tuple("UNDO")


def test_every_cell_is_in_gpiozeros_seven_segment_font(factory):
    """What the renderer writes, the display can show, and reads back the same."""
    panel = PanelState(side="Us")
    states = [panel, panel.scanning(), panel.asking(check=False), panel.recorded()]
    states += [panel.undone(), *(panel.failed(code) for code in range(1, 6))]
    cells = {cell for state in states for cell in display.cells_for(state, 1)}
    for points in (*range(10), -55, 12345, -1500):
        cells |= set(display.number_cells(points))
    assert {"-", "9.", "E", "R", "N", "D", "O", "U", "P"} <= cells
    char = LEDCharDisplay(4, 17, 27, 22, 10, 9, 11, dp=7, pin_factory=factory)
    char.font["-"] = display.SEGMENT_DASH
    try:
        for cell in sorted(cells):
            char.value = cell
            assert char.value == cell
    finally:
        char.close()


def test_leds_for_each_state():
    panel = PanelState(mode="leftovers", side="Us")
    assert display.leds_for(panel) == {
        "table": "off",
        "leftovers": "on",
        "meld": "off",
        "green": "off",
        "amber": "off",
        "red": "off",
    }
    legal = display.leds_for(panel.showing(570, legal=True, check=False))
    assert (legal["green"], legal["amber"], legal["red"]) == ("on", "off", "off")
    illegal = display.leds_for(panel.showing(40, legal=False, check=False))
    assert (illegal["green"], illegal["amber"], illegal["red"]) == ("off", "off", "on")
    busy = display.leds_for(panel.scanning())
    assert (busy["green"], busy["amber"], busy["red"]) == ("off", "blink", "off")
    fault = display.leds_for(panel.failed(1))
    assert (fault["amber"], fault["red"]) == ("fast", "on")
    unreadable = display.leds_for(panel.failed(2))
    assert (unreadable["amber"], unreadable["red"]) == ("off", "on")
    assert display.leds_for(panel.asking(check=False))["green"] == "blink"
    assert display.leds_for(panel.asking(check=True))["amber"] == "blink"


@pytest.mark.parametrize("module", [display, hardware.pins])
def test_docstring_examples(module):
    failed, _ = doctest.testmod(module)
    assert failed == 0


# --- the pin map -----------------------------------------------------------------------------


def test_the_shipped_pin_map_is_the_documented_default():
    assert load_pin_map(DEFAULT_FILE) == PinMap()
    assert load_pin_map(None) == PinMap()
    used = [pin for _, pin in PinMap().pins()]
    assert len(used) == len(set(used)) == 22


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[buttons]\nscann = 3", "panel.toml: buttons.scann: is not a key of [buttons]"),
        ("[lights]\ngreen = 3", "panel.toml: lights: is not a section"),
        ("[leds]\ngreen = 40", "panel.toml: leds.green: BCM 40 is not a GPIO"),
        ("[leds]\ngreen = 5", "panel.toml: leds.green: pin 5 is already buttons.scan"),
        ("[display]\ndigits = [1, 2]", "panel.toml: display.digits: must be a list of 4"),
        ("[buttons]\nhold_s = 'long'", "panel.toml: buttons.hold_s: must be a number"),
        ("[buzzer]\nactive_high = 1", "panel.toml: buzzer.active_high: must be true or false"),
        ("[buttons", "panel.toml: is not valid TOML"),
    ],
)
def test_a_bad_pin_map_names_the_key_and_the_file(text, words):
    with pytest.raises(PanelConfigError) as raised:
        pin_map_from_toml(text, source="panel.toml")
    assert str(raised.value).startswith(words)


def test_a_pin_map_changes_only_what_it_names(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[display]\ndp = false\nsegments_active_high = false\n[buttons]\nhold_s = 1.5")
    pins = load_pin_map(path)
    assert (pins.dp, pins.segments_active_high, pins.hold_s) == (None, False, 1.5)
    assert replace(pins, dp=7, segments_active_high=True, hold_s=2.0) == PinMap()
    with pytest.raises(PanelConfigError, match="cannot be read"):
        load_pin_map(tmp_path / "missing.toml")


# --- buttons ---------------------------------------------------------------------------------


def test_a_press_posts_its_event_on_release(simulated, service, factory):
    pin = factory.pin(QUICK.scan)
    pin.drive_low()
    assert service.posted == []  # a press counts when the button comes up
    pin.drive_high()
    assert service.posted == [("press", Button.SCAN)]
    for name, button in (("mode", Button.MODE), ("next", Button.NEXT)):
        assert simulated.press(name).result(1) == {"kind": "press"}
        assert service.posted[-1] == ("press", button)
    assert len(service.posted) == 3


def test_holds_post_cancel_and_undo_never_a_press(simulated, service):
    assert simulated.hold("scan").result(1) == {"kind": "hold"}
    assert simulated.hold(Button.NEXT).result(1) == {"kind": "hold"}
    assert service.posted == [("hold", Button.SCAN), ("hold", Button.NEXT)]
    # gpiozero fires a hold on its own thread; the handler only posted it there.
    assert all(name != threading.current_thread().name for name in service.threads)
    with pytest.raises(ValueError, match="MODE"):
        simulated.hold("mode")


def test_a_long_press_of_mode_is_a_press(simulated, service, factory):
    pin = factory.pin(QUICK.mode)
    pin.drive_low()
    time.sleep(QUICK.hold_s * 3)
    pin.drive_high()
    assert service.posted == [("press", Button.MODE)]


def test_a_hold_released_early_is_a_press(simulated, service, factory):
    pin = factory.pin(QUICK.next)
    pin.drive_low()
    time.sleep(QUICK.hold_s / 4)
    pin.drive_high()
    time.sleep(QUICK.hold_s * 2)
    assert service.posted == [("press", Button.NEXT)]


def test_buttons_wired_to_3v3_with_pull_downs(service, factory):
    pins = replace(QUICK, pull_up=False)
    with SimulatedPanel(service, pins, factory=factory) as panel:
        panel.press("scan").result(1)
    assert service.posted == [("press", Button.SCAN)]


# --- what the panel shows --------------------------------------------------------------------


def test_a_legal_meld(simulated, service, factory):
    pins = simulated.pins
    service.show(PanelState(mode="meld", side="Us").scanning())
    service.show(PanelState(mode="meld", side="Us").showing(570, legal=True, check=False))
    assert simulated.panel.display.value == tuple(" 570")
    assert lit(factory, pins.green) and not lit(factory, pins.red) and not lit(factory, pins.amber)
    assert lit(factory, pins.meld) and not lit(factory, pins.table)
    time.sleep(0.4)  # the beep runs in gpiozero's background thread
    assert sum(state.state for state in factory.pin(pins.buzzer).states) == 1  # one beep
    assert simulated.snapshot()["display"] == " 570"
    assert simulated.snapshot()["leds"]["green"] == "on"


def test_an_illegal_meld_beeps_twice(simulated, service, factory):
    pins = simulated.pins
    service.show(PanelState(mode="meld").scanning())
    factory.pin(pins.buzzer).clear_states()
    service.show(PanelState(mode="meld").showing(-55, legal=False, check=False))
    assert simulated.panel.display.value == tuple(" -55")
    assert lit(factory, pins.red) and not lit(factory, pins.green)
    time.sleep(0.6)
    assert sum(state.state for state in factory.pin(pins.buzzer).states) == 2


def test_busy_shows_dashes_and_blinks_amber(simulated, service, factory):
    pins = simulated.pins
    service.show(PanelState().scanning())
    assert simulated.panel.display.value == tuple("----")
    # All four digits alike: no multiplexing, segment g alone lit on every digit.
    segments = [lit(factory, pin) for pin in pins.segments]
    assert segments == [False] * 6 + [True]
    assert all(lit(factory, pin) for pin in pins.digits)
    assert 2 <= changes_within(factory, pins.amber, 0.8) <= 4
    assert not lit(factory, pins.green) and not lit(factory, pins.red)
    assert simulated.snapshot()["leds"]["amber"] == "blink"


def test_a_fault_shows_err_and_blinks_amber_fast(simulated, service, factory):
    pins = simulated.pins
    service.show(PanelState().scanning())
    factory.pin(pins.buzzer).clear_states()
    service.show(PanelState().failed(1))
    assert simulated.panel.display.value == tuple("ERR1")
    assert lit(factory, pins.red)
    assert changes_within(factory, pins.amber, 0.9) >= 5  # blinking every 0.08 s
    assert simulated.snapshot()["leds"] == simulated.snapshot()["leds"] | {"amber": "fast"}
    buzzer = factory.pin(pins.buzzer).states
    assert sum(state.state for state in buzzer) == 1  # one long beep
    on = [b.timestamp for a, b in pairwise(buzzer) if a.state]
    assert on and on[0] >= 0.5


def test_a_unreadable_picture_is_a_problem_not_a_fault(simulated, service, factory):
    pins = simulated.pins
    service.show(PanelState().failed(2))
    assert simulated.panel.display.value == tuple("ERR2")
    assert lit(factory, pins.red) and changes_within(factory, pins.amber, 0.3) == 0


def test_cards_to_check_light_amber_steady(simulated, service, factory):
    pins = simulated.pins
    service.show(PanelState().showing(1080, legal=True, check=True))
    assert lit(factory, pins.amber) and changes_within(factory, pins.amber, 0.4) == 0
    assert simulated.panel.display.value == tuple("1080")


def test_the_side_is_shown_when_nothing_else_is(simulated, service):
    service.show(PanelState(side="Them"))
    assert simulated.snapshot()["display"] == "P  2"
    service.show(PanelState(side="Them").showing(12345, legal=True, check=False))
    assert simulated.snapshot()["display"] == "9999."


def test_mode_leds_follow_the_mode(simulated, service, factory):
    pins = simulated.pins
    for mode in ("table", "leftovers", "meld"):
        service.show(PanelState(mode=mode))
        assert [lit(factory, getattr(pins, m)) for m in ("table", "leftovers", "meld")] == [
            m == mode for m in ("table", "leftovers", "meld")
        ]


def test_the_panel_closes_its_pins(service, factory):
    panel = Panel(service, QUICK, pin_factory=factory)
    panel.start()
    assert service.events.count == 1
    panel.close()
    assert service.events.count == 0
    # Every pin is free again: a second panel can take them.
    Panel(service, QUICK, pin_factory=factory).close()


def test_the_readmes_wiring_table_is_the_pin_map_and_the_header():
    """Each row: the pin map key, its BCM number and the header pin gpiozero puts it on."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    rows = re.findall(r"^\| [^|]+ \| `([a-z_.0-9]+)` \| (\d+) \| (\d+) \|$", readme, re.MULTILINE)
    pins = dict(PinMap().pins())
    assert {key for key, _, _ in rows} == set(pins)
    header = MockFactory(revision="c03112").board_info.headers["J8"].pins  # a Pi 4B
    for key, bcm, position in rows:
        assert pins[key] == int(bcm), key
        assert header[int(position)].name == f"GPIO{bcm}", key

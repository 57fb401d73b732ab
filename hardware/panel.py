"""The LED/button panel next to the camera, on gpiozero.

``Panel(service, pins, pin_factory=...)`` builds the three buttons, six LEDs, the 4-digit
7-segment display (``LEDMultiCharDisplay``) and the buzzer from a :class:`PinMap`, on the
given pin factory (the Pi's own when None; gpiozero's mock pins in ``hardware.simulated``).

Buttons act on release, so a press and a hold never both count:

- SCAN: press → ``service.press(Button.SCAN)`` (scan in the panel's mode for its side);
  held for ``hold_s`` (2 s) → ``service.hold(Button.SCAN)`` (cancel).
- MODE: press → ``service.press(Button.MODE)`` (meld check / table / leftovers).
- NEXT: press → ``service.press(Button.NEXT)`` (next side; on the last side, confirm the
  deal); held → ``service.hold(Button.NEXT)`` (undo the last recorded deal).

gpiozero calls the handlers on its own threads; a handler only posts the event (the service
queues it and applies events in order) and never waits. The panel listens to
``service.events`` and sets the LEDs, the display and the buzzer from the service's
``PanelState`` (``scanner.service.display`` says what each state looks like); each change is a few
pin writes, done on the service's thread without waiting.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

from gpiozero import (
    LED,
    Buzzer,
    CompositeOutputDevice,
    LEDCharDisplay,
    LEDMultiCharDisplay,
    OutputDevice,
)
from gpiozero import Button as GpioButton

from hardware.pins import LED_NAMES, PinMap
from scanner.service import display
from scanner.service.panel import HOLDS, Button, PanelState

log = logging.getLogger(__name__)

BLINK_S = {"blink": (0.3, 0.3), "fast": (0.08, 0.08)}
BEEP_S = {"one": (0.08, 0.12, 1), "two": (0.08, 0.12, 2), "long": (0.6, 0.1, 1)}

Posted = Callable[[Button, str, Future], None]


class PanelService(Protocol):
    """What the panel needs of the table service (``TableService`` is one)."""

    events: Any  # a Broadcaster: subscribe(listener) -> unsubscribe

    @property
    def state(self) -> Any: ...  # a TableState: .panel and .side_names

    def press(self, button: Button) -> Future: ...

    def hold(self, button: Button) -> Future: ...


class Panel:
    """The panel's gpiozero devices, wired to ``service``. :meth:`start` shows the service's
    state and follows its changes; :meth:`close` releases the pins. ``posted`` (optional) is
    told of every event a button posts, with the service's future."""

    def __init__(
        self,
        service: PanelService,
        pins: PinMap | None = None,
        *,
        pin_factory: Any = None,
        posted: Posted | None = None,
    ) -> None:
        self.service = service
        self.pins = pins or PinMap()
        self._factory = pin_factory
        self._posted = posted
        self._lock = threading.Lock()  # the hold flags
        self._show_lock = threading.Lock()  # the outputs
        self._held: set[Button] = set()
        self._shown: PanelState | None = None
        self._led_states: dict[str, str] = {}
        self._unsubscribe: Callable[[], None] | None = None
        self._devices: list[Any] = []
        try:
            self.buttons = {button: self._button(button) for button in Button}
            self.leds = {name: self._led(getattr(self.pins, name)) for name in LED_NAMES}
            self.display = self._display()
            self.buzzer = self._add(
                Buzzer(
                    self.pins.buzzer,
                    active_high=self.pins.buzzer_active_high,
                    pin_factory=self._factory,
                )
            )
        except BaseException:
            self.close()
            raise

    # --- building ------------------------------------------------------------------------

    def _add(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    def _button(self, which: Button) -> GpioButton:
        device = self._add(
            GpioButton(
                getattr(self.pins, which.value),
                pull_up=self.pins.pull_up,
                bounce_time=self.pins.bounce_s or None,
                hold_time=self.pins.hold_s,
                pin_factory=self._factory,
            )
        )
        device.when_pressed = lambda: self._on_press(which)
        device.when_released = lambda: self._on_release(which)
        if which in HOLDS:
            device.when_held = lambda: self._on_hold(which)
        return device

    def _led(self, pin: int) -> LED:
        return self._add(
            LED(pin, active_high=self.pins.leds_active_high, pin_factory=self._factory)
        )

    def _display(self) -> LEDMultiCharDisplay:
        char = LEDCharDisplay(
            *self.pins.segments,
            dp=self.pins.dp,
            active_high=self.pins.segments_active_high,
            pin_factory=self._factory,
        )
        char.font["-"] = display.SEGMENT_DASH
        try:
            multi = MultiCharDisplay(
                char,
                *self.pins.digits,
                active_high=self.pins.digits_active_high,
                pin_factory=self._factory,
            )
        except BaseException:
            char.close()
            raise
        multi.plex_delay = self.pins.plex_delay_s
        return self._add(multi)

    # --- buttons: post, never decide ------------------------------------------------------

    def _on_press(self, which: Button) -> None:
        with self._lock:
            self._held.discard(which)

    def _on_hold(self, which: Button) -> None:
        with self._lock:
            if not self.buttons[which].is_pressed:
                return  # released as the hold came due: that was a press
            self._held.add(which)
        self.post(which, "hold")

    def _on_release(self, which: Button) -> None:
        with self._lock:
            if which in self._held:
                self._held.discard(which)
                return
        self.post(which, "press")

    def post(self, which: Button, kind: str) -> Future:
        """Hand a press or a hold to the service; the future it answers with."""
        log.info("panel: %s %s", which.value.upper(), kind)
        future = self.service.hold(which) if kind == "hold" else self.service.press(which)
        future.add_done_callback(_log_refusal)
        if self._posted is not None:
            self._posted(which, kind, future)
        return future

    def press(self, which: Button) -> Future:
        """The page's drawn button on a Pi: the same event a press of the board's posts."""
        return self.post(which, "press")

    def hold(self, which: Button) -> Future:
        """The page's drawn button held, on a Pi (SCAN and NEXT only)."""
        if which not in HOLDS:
            raise ValueError(f"holding {which.value.upper()} does nothing")
        return self.post(which, "hold")

    # --- showing the service's state ------------------------------------------------------

    def start(self) -> None:
        """Show the current state and follow every change."""
        if self._unsubscribe is None:
            self._unsubscribe = self.service.events.subscribe(self._on_event)
        self.show()

    def _on_event(self, event: dict) -> None:
        if event.get("kind") == "closed":
            return
        try:
            self.show()
        except Exception:  # a panel fault must not take the table down
            log.exception("the panel could not show the table's state")

    def show(self) -> None:
        """Set the LEDs, the display and the buzzer from the service's state now."""
        state = self.service.state
        panel: PanelState = state.panel
        shown = display.state_face(state, dp=self.pins.dp is not None)
        with self._show_lock:
            if not self._devices:
                return
            before, self._shown = self._shown, panel
            if tuple(self.display.value) != shown.cells:
                self.display.value = shown.cells
            for name, wanted in shown.leds.items():
                self._set_led(name, wanted)
            sound = display.beeps(before, panel)
            if sound is not None:
                on, off, count = BEEP_S[sound]
                self.buzzer.beep(on_time=on, off_time=off, n=count, background=True)

    def _set_led(self, name: str, wanted: str) -> None:
        if self._led_states.get(name) == wanted:
            return
        led = self.leds[name]
        if wanted in BLINK_S:
            on, off = BLINK_S[wanted]
            led.blink(on_time=on, off_time=off, background=True)
        elif wanted == "on":
            led.on()
        else:
            led.off()
        self._led_states[name] = wanted

    def snapshot(self) -> dict:
        """What the panel shows, read back from the gpiozero devices: the display's cells and
        each LED (``on``/``off``; ``blink``/``fast`` for one gpiozero is blinking, whose
        instant value means nothing to a page)."""
        with self._show_lock:
            if not self._devices:
                return display.Face(display.BLANK, {}).to_json()
            cells = tuple(str(cell) for cell in self.display.value)
            leds = {}
            for name, led in self.leds.items():
                asked = self._led_states.get(name, "off")
                leds[name] = asked if asked in BLINK_S else ("on" if led.is_lit else "off")
        return display.Face(cells, leds).to_json()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._show_lock:
            devices, self._devices = self._devices, []
        for device in reversed(devices):
            try:
                device.close()
            except Exception:
                log.warning("a panel device did not close cleanly", exc_info=True)

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MultiCharDisplay(LEDMultiCharDisplay):
    """gpiozero's ``LEDMultiCharDisplay``, with its digit lines on the display's own pin
    factory. gpiozero 2.0.1 builds the group of digit lines without passing ``pin_factory``,
    so off a Pi (mock pins, no default factory) it fails with ``BadPinFactory``; this is its
    constructor with that one argument added. Everything else is gpiozero's."""

    def __init__(
        self, char: LEDCharDisplay, *pins: int, active_high: bool = True, pin_factory: Any = None
    ) -> None:
        if pin_factory is None:
            pin_factory = char.pin_factory
        self._plex_thread = None
        self._plex_delay = 0.005
        plex = CompositeOutputDevice(
            *(
                OutputDevice(
                    pin, active_high=active_high, initial_value=None, pin_factory=pin_factory
                )
                for pin in pins
            ),
            pin_factory=pin_factory,
        )
        CompositeOutputDevice.__init__(self, plex=plex, char=char, pin_factory=pin_factory)
        self.value = (char.value,) * len(pins)


def _log_refusal(future: Future) -> None:
    error = future.exception()
    if error is not None:
        log.info("panel: the table answered: %s", error)

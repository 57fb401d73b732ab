"""The panel without a Raspberry Pi: the same :class:`Panel`, on gpiozero's mock pins.

``SimulatedPanel(service)`` builds the panel on a private ``MockFactory`` (the global
``Device.pin_factory`` is left alone). :meth:`press` and :meth:`hold` drive the button's mock
pin down and up, as a finger would, so every press goes through gpiozero's ``Button`` and the
panel's handlers exactly as on the board; :meth:`snapshot` reads the LEDs and the display back
from the gpiozero devices. The page's drawn panel uses these three.
"""

from __future__ import annotations

import threading
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.panel import Panel, PanelService
from hardware.pins import PinMap
from scanner.service.panel import HOLDS, Button

PRESS_WAIT_S = 2.0  # a press is handled as the pin is released; this is only a safety net


class PanelFault(RuntimeError):
    """A press or hold that the panel's handlers never saw (the panel is closed)."""


class BoundedMockPin(MockPin):
    """gpiozero's ``MockPin`` keeping only its latest state changes. A ``MockPin`` records
    every change, and the multiplexed display changes its pins hundreds of times a second:
    a table left running for an evening would fill the memory."""

    HISTORY = 256

    def clear_states(self) -> None:
        super().clear_states()
        self.states = deque(self.states, maxlen=self.HISTORY)


@dataclass
class _Expected:
    kind: str
    seen: threading.Event = field(default_factory=threading.Event)
    future: Future | None = None


class SimulatedPanel:
    """The panel on mock pins. ``press("scan")`` returns the service's future for the event
    the press posted (for SCAN, the scan's view)."""

    def __init__(
        self, service: PanelService, pins: PinMap | None = None, *, factory: Any = None
    ) -> None:
        self.factory = factory if factory is not None else MockFactory(pin_class=BoundedMockPin)
        self._expected: dict[Button, _Expected] = {}
        self._locks = {button: threading.Lock() for button in Button}
        self.panel = Panel(service, pins, pin_factory=self.factory, posted=self._on_posted)
        self.pins = self.panel.pins

    def start(self) -> None:
        self.panel.start()

    def close(self) -> None:
        self.panel.close()

    def __enter__(self) -> SimulatedPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pin(self, which: Button | str) -> MockPin:
        """The mock pin a button is wired to."""
        return self.factory.pin(getattr(self.pins, Button(which).value))

    def press(self, which: Button | str) -> Future:
        """Press and release a button; the future of the event it posted."""
        button = Button(which)
        with self._locks[button]:
            expected = self._expect(button, "press")
            pin = self.pin(button)
            self._down(pin)
            self._up(pin)
            return self._answer(button, expected, PRESS_WAIT_S)

    def hold(self, which: Button | str) -> Future:
        """Hold a button down past its hold time (SCAN or NEXT), then release it."""
        button = Button(which)
        if button not in HOLDS:
            raise ValueError(f"holding {button.value.upper()} does nothing")
        with self._locks[button]:
            expected = self._expect(button, "hold")
            pin = self.pin(button)
            self._down(pin)
            try:
                return self._answer(button, expected, self.pins.hold_s + PRESS_WAIT_S)
            finally:
                self._up(pin)

    def snapshot(self) -> dict:
        return self.panel.snapshot()

    def _expect(self, button: Button, kind: str) -> _Expected:
        expected = _Expected(kind)
        self._expected[button] = expected
        return expected

    def _answer(self, button: Button, expected: _Expected, wait_s: float) -> Future:
        try:
            if not expected.seen.wait(wait_s) or expected.future is None:
                raise PanelFault(
                    f"the panel did not see the {button.value.upper()} {expected.kind}"
                )
            return expected.future
        finally:
            self._expected.pop(button, None)

    def _on_posted(self, button: Button, kind: str, future: Future) -> None:
        expected = self._expected.get(button)
        if expected is not None and expected.kind == kind:
            expected.future = future
            expected.seen.set()

    def _down(self, pin: MockPin) -> None:
        if self.pins.pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    def _up(self, pin: MockPin) -> None:
        if self.pins.pull_up:
            pin.drive_high()
        else:
            pin.drive_low()

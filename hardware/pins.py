"""The panel's pin map: which BCM GPIO each button, LED, display line and the buzzer uses.

``PinMap()`` holds the documented defaults (the wiring table in the README); a TOML file
changes any of them (``hardware/panel.toml`` lists every key with its default). An unknown
section or key, a wrong type, a pin outside BCM 2-27 or one pin used twice is a
:class:`PanelConfigError` naming the key and the file; nothing is silently ignored.

>>> PinMap().scan, PinMap().digits
(5, (23, 24, 25, 8))
>>> pin_map_from_toml('[buttons]\\nscan = 12', source="mine.toml").scan
Traceback (most recent call last):
...
hardware.pins.PanelConfigError: mine.toml: buttons.scan: pin 12 is already leds.meld
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

FIRST_PIN, LAST_PIN = 2, 27  # the BCM GPIOs on the 40-pin header

DEFAULT_FILE = Path(__file__).resolve().parent / "panel.toml"


class PanelConfigError(ValueError):
    """A pin map that cannot be used; the message names the file and the key."""

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None):
        self.reason, self.key, self.source = message, key, source
        where = f"{source}: " if source else ""
        what = f"{key}: " if key else ""
        super().__init__(f"{where}{what}{message}")


@dataclass(frozen=True)
class PinMap:
    """BCM pin numbers and the electrical choices of the panel. Defaults: see the README's
    wiring table. ``segments`` are a..g of the 7-segment display, ``digits`` its four common
    lines left to right, ``dp`` its decimal point (``None``: not wired)."""

    # [buttons]: each between its GPIO and ground, using the Pi's internal pull-up
    scan: int = 5
    mode: int = 6
    next: int = 13
    pull_up: bool = True
    bounce_s: float = 0.02
    hold_s: float = 2.0
    # [leds]: each through a resistor to ground
    green: int = 19
    amber: int = 26
    red: int = 21
    table: int = 16
    leftovers: int = 20
    meld: int = 12
    leds_active_high: bool = True
    # [display]: a common-cathode 4-digit display, digit commons switched by NPN transistors
    segments: tuple[int, ...] = (4, 17, 27, 22, 10, 9, 11)
    dp: int | None = 7
    digits: tuple[int, ...] = (23, 24, 25, 8)
    segments_active_high: bool = True
    digits_active_high: bool = True
    plex_delay_s: float = 0.005
    # [buzzer]: an active buzzer, through a transistor
    buzzer: int = 18
    buzzer_active_high: bool = True

    def __post_init__(self) -> None:
        _check_unique(self.pins())

    def pins(self) -> list[tuple[str, int]]:
        """Every pin in use with its key (``display.segments.a`` …), in wiring order."""
        named = [(f"buttons.{b}", getattr(self, b)) for b in ("scan", "mode", "next")]
        named += [(f"leds.{led}", getattr(self, led)) for led in LED_NAMES]
        named += [(f"display.segments.{'abcdefg'[i]}", p) for i, p in enumerate(self.segments)]
        if self.dp is not None:
            named.append(("display.dp", self.dp))
        named += [(f"display.digits.{i + 1}", p) for i, p in enumerate(self.digits)]
        named.append(("buzzer.pin", self.buzzer))
        return named


def _check_unique(named: list[tuple[str, int]], changed: frozenset[str] = frozenset()) -> None:
    """One pin, one use. The error names the key that was changed (``changed``: TOML keys a
    file set), so the message points at the line to fix."""
    first: dict[int, str] = {}
    for key, pin in named:
        if pin in first:
            kept, clash = first[pin], key
            if _toml_key(kept) in changed and _toml_key(clash) not in changed:
                kept, clash = clash, kept
            raise PanelConfigError(f"pin {pin} is already {kept}", key=_toml_key(clash))
        first[pin] = key


LED_NAMES = ("green", "amber", "red", "table", "leftovers", "meld")

# TOML section -> key -> (PinMap field, kind)
LAYOUT: dict[str, dict[str, tuple[str, str]]] = {
    "buttons": {
        "scan": ("scan", "pin"),
        "mode": ("mode", "pin"),
        "next": ("next", "pin"),
        "pull_up": ("pull_up", "bool"),
        "bounce_s": ("bounce_s", "seconds"),
        "hold_s": ("hold_s", "seconds"),
    },
    "leds": {name: (name, "pin") for name in LED_NAMES}
    | {"active_high": ("leds_active_high", "bool")},
    "display": {
        "segments": ("segments", "7 pins"),
        "dp": ("dp", "pin or false"),
        "digits": ("digits", "4 pins"),
        "segments_active_high": ("segments_active_high", "bool"),
        "digits_active_high": ("digits_active_high", "bool"),
        "plex_delay_s": ("plex_delay_s", "seconds"),
    },
    "buzzer": {"pin": ("buzzer", "pin"), "active_high": ("buzzer_active_high", "bool")},
}


def pin_map_from_toml(text: str, *, source: str) -> PinMap:
    """Read a pin map; ``source`` names the file in every error."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PanelConfigError(f"is not valid TOML ({error})", source=source) from None
    try:
        return pin_map_from_mapping(data)
    except PanelConfigError as error:
        raise PanelConfigError(error.reason, key=error.key, source=source) from None


def load_pin_map(path: Path | None) -> PinMap:
    """The pin map in ``path``; the defaults when ``path`` is None."""
    if path is None:
        return PinMap()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise PanelConfigError(f"cannot be read ({error.strerror})", source=str(path)) from None
    return pin_map_from_toml(text, source=str(path))


def pin_map_from_mapping(data: dict[str, Any]) -> PinMap:
    changes: dict[str, Any] = {}
    set_keys: set[str] = set()
    for section, values in data.items():
        keys = LAYOUT.get(section)
        if keys is None:
            known = ", ".join(f"[{name}]" for name in LAYOUT)
            raise PanelConfigError(
                f"is not a section of the panel's pin map ({known})", key=section
            )
        if not isinstance(values, dict):
            raise PanelConfigError(f"must be a table such as [{section}]", key=section)
        for key, value in values.items():
            name = f"{section}.{key}"
            if key not in keys:
                raise PanelConfigError(f"is not a key of [{section}] ({', '.join(keys)})", key=name)
            field, kind = keys[key]
            changes[field] = _convert(value, kind, name)
            set_keys.add(name)
    defaults = PinMap()
    candidate = object.__new__(PinMap)  # unchecked, to name the changed key in a clash
    for field in fields(PinMap):
        object.__setattr__(
            candidate, field.name, changes.get(field.name, getattr(defaults, field.name))
        )
    _check_unique(candidate.pins(), frozenset(set_keys))
    return replace(defaults, **changes)


def _toml_key(key: str | None) -> str | None:
    """``display.segments.a`` names the list ``display.segments``; the rest are TOML keys."""
    if key and key.startswith(("display.segments.", "display.digits.")):
        return key.rsplit(".", 1)[0]
    return key


def _convert(value: Any, kind: str, key: str) -> Any:
    if kind == "pin":
        return _pin(value, key)
    if kind == "pin or false":
        return None if value is False else _pin(value, key)
    if kind == "bool":
        if not isinstance(value, bool):
            raise PanelConfigError(f"must be true or false, not {value!r}", key=key)
        return value
    if kind == "seconds":
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 10:
            raise PanelConfigError(f"must be a number of seconds, 0 to 10, not {value!r}", key=key)
        return float(value)
    count = int(kind.split()[0])
    if not isinstance(value, list) or len(value) != count:
        raise PanelConfigError(f"must be a list of {count} pin numbers, not {value!r}", key=key)
    return tuple(_pin(pin, key) for pin in value)


def _pin(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PanelConfigError(f"must be a BCM pin number, not {value!r}", key=key)
    if not FIRST_PIN <= value <= LAST_PIN:
        raise PanelConfigError(
            f"BCM {value} is not a GPIO of the header ({FIRST_PIN} to {LAST_PIN})", key=key
        )
    return value

"""Checks on what callers hand the store, done before any file or row is written, so a bad value
is refused with a sentence instead of surfacing later as an odd database error."""

from __future__ import annotations

import json
from collections.abc import Iterable

from scanner.store.errors import BadValue

SHORT_WORD = 40


def to_json_text(what: str, value: object) -> str:
    """``value`` (a dict) as compact JSON text; :class:`BadValue` if it is not plain JSON.

    >>> to_json_text("reading", {"cards": ["QH"], "ok": True})
    '{"cards":["QH"],"ok":true}'
    >>> to_json_text("reading", {"confidence": float("nan")})
    Traceback (most recent call last):
    ...
    scanner.store.errors.BadValue: The reading {'confidence': nan} cannot be stored: it is not plain JSON (Out of range float values are not JSON compliant).
    """  # noqa: E501
    if not isinstance(value, dict):
        raise BadValue(what, value, "it is not a JSON object")
    return _dumps(what, value)


def _dumps(what: str, value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise BadValue(what, value, f"it is not plain JSON ({error.args[0]})") from None


def text(what: str, value: object, *, empty: bool = False, limit: int | None = None) -> str:
    if not isinstance(value, str):
        raise BadValue(what, value, "it is not text")
    if not empty and not value.strip():
        raise BadValue(what, value, "it is empty")
    if limit is not None and len(value) > limit:
        raise BadValue(what, value, f"it is longer than {limit} characters")
    return value


def row_id(what: str, value: object) -> int:
    """An id or deal number: a whole number from 1 up (``True`` is not one, though Python
    says it is an int)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BadValue(what, value, "it is not a whole number from 1 up")
    return value


def optional_id(what: str, value: object) -> int | None:
    return None if value is None else row_id(what, value)


def image_bytes(what: str, value: object) -> bytes:
    if not isinstance(value, bytes | bytearray | memoryview):
        raise BadValue(what, type(value).__name__, "it is not bytes")
    data = bytes(value)
    if not data:
        raise BadValue(what, "b''", "it is empty")
    return data


def sides(value: object) -> str:
    """The game's sides as JSON text: a non-empty list of ``{"name", "players"}`` with distinct
    names (the exports add up each deal's totals by side name)."""
    if not isinstance(value, list | tuple) or not value:
        raise BadValue("list of sides", value, "a game needs at least one side")
    seen: set[str] = set()
    kept = []
    for side in value:
        if not isinstance(side, dict):
            raise BadValue("side", side, "it is not an object with a name and players")
        name = text("side name", side.get("name"))
        if name in seen:
            raise BadValue("side name", name, "two sides have that name")
        seen.add(name)
        players = side.get("players", [])
        if not isinstance(players, list | tuple) or not all(
            isinstance(player, str) for player in players
        ):
            raise BadValue(f"players of side {name!r}", players, "they are not a list of names")
        kept.append(side | {"players": list(players)})
    return _dumps("list of sides", kept)


def ids(what: str, values: Iterable[object]) -> list[int]:
    if isinstance(values, str | bytes):
        raise BadValue(what, values, "it is not a list of ids")
    return [row_id(what, value) for value in values]

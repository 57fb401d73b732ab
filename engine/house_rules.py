"""House rules: a TOML text that names a base preset and overrides any of its parameters.

::

    base = "pagat"              # any preset, with its option: "brouillette:low"
    name = "Kitchen table"
    wild_melds = false
    go_out = {clean = 1, dirty = 1}
    initial_minimums = [50, 90, 120, 150]
    [card_values]
    A = 25

An unknown key or an impossible value is a :class:`RulesError` naming the key and the source;
nothing is ever ignored. :func:`rules_to_toml` writes every parameter in this same form, so the
output of ``handfoot rules show`` is itself a valid house-rules file.

>>> rules = rules_from_toml('base = "pagat"\\nclean_bonus = 600', source="table.toml")
>>> rules.clean_bonus, rules.name
(600, 'table.toml')
>>> rules_from_toml(rules_to_toml(rules), source="again.toml") == rules
True
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import replace
from enum import Enum
from typing import Any

from engine.cards import Deck
from engine.errors import RulesError
from engine.presets import DEFAULT_VALUES, get_preset
from engine.rules import BookRequirement, MeldsPerRank, PlayStyle, RedThrees, RuleSet

NONE = "none"
# No parameter is anywhere near this; a number past it is refused as read, before it sizes
# anything (a list per deal, a sum of points).
LARGEST = 1_000_000
# Deals are checked before the per-deal lists are spread out over them.
MOST_DEALS = 100


def _int(value: Any, key: str) -> int:
    """
    >>> _int(10**20, "clean_bonus")
    Traceback (most recent call last):
    ...
    engine.errors.RulesError: clean_bonus: must be between -1000000 and 1000000 (it is 100000000000000000000)
    """  # noqa: E501
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"must be a whole number, not {value!r}", key=key)
    if not -LARGEST <= value <= LARGEST:
        raise RulesError(f"must be between -{LARGEST} and {LARGEST} (it is {value})", key=key)
    return value


def _optional_int(value: Any, key: str) -> int | None:
    return None if value == NONE else _int(value, key)


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"must be true or false, not {value!r}", key=key)
    return value


def _str(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise RulesError(f"must be text, not {value!r}", key=key)
    return value


def _enum(kind: type[Enum]) -> Callable[[Any, str], Enum]:
    def convert(value: Any, key: str) -> Enum:
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(f'"{member.value}"' for member in kind)
            raise RulesError(f"must be one of {choices}, not {value!r}", key=key) from None

    return convert


def _int_list(value: Any, key: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RulesError(f"must be a list of whole numbers, not {value!r}", key=key)
    return tuple(_int(item, key) for item in value)


def _requirement(value: Any, key: str) -> BookRequirement:
    if not isinstance(value, Mapping):
        raise RulesError(
            f"must be a table such as {{clean = 2, dirty = 2}}, not {value!r}", key=key
        )
    unknown = sorted(set(value) - {"clean", "dirty", "wild", "any"})
    if unknown:
        raise RulesError(f"unknown book kind {unknown[0]!r} (clean, dirty, wild, any)", key=key)
    return BookRequirement(**{kind: _int(count, key) for kind, count in value.items()})


def _go_out(value: Any, key: str) -> tuple[BookRequirement, ...] | BookRequirement:
    if isinstance(value, list):
        return tuple(_requirement(item, key) for item in value)
    return _requirement(value, key)  # one requirement for every deal, spread out below


def _card_values(value: Any, key: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RulesError(f"must be a table such as {{A = 20, K = 10}}, not {value!r}", key=key)
    return {str(card).upper(): _int(points, f"{key}.{card}") for card, points in value.items()}


CONVERTERS: dict[str, Callable[[Any, str], Any]] = {
    "name": _str,
    "description": _str,
    "deck": _enum(Deck),
    "play": _enum(PlayStyle),
    "hand_size": _int,
    "foot_size": _int,
    "deals": _int,
    "card_values": _card_values,
    "meld_min": _int,
    "book_size": _int,
    "meld_max": _optional_int,
    "wild_ratio": _str,
    "wild_max": _optional_int,
    "wild_melds": _bool,
    "black_three_melds": _bool,
    "clean_bonus": _int,
    "dirty_bonus": _int,
    "wild_bonus": _int,
    "black_three_bonus": _int,
    "go_out": _go_out,
    "going_out_bonus": _int,
    "red_threes": _enum(RedThrees),
    "red_three_points": _int,
    "exact_22_bonus": _int,
    "lady_bonus": _int,
    "lady_penalty": _int,
    "initial_minimums": _int_list,
    "concealed_first_meld_deals": _int_list,
    "melds_per_rank": _enum(MeldsPerRank),
}
PER_DEAL = ("go_out", "initial_minimums")


def rules_from_toml(text: str, *, source: str) -> RuleSet:
    """Read house rules. ``source`` names the file in every error message."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"is not valid TOML ({error})", source=source) from None
    try:
        return rules_from_mapping(data, source=source)
    except RulesError as error:
        if error.source:
            raise
        raise RulesError(error.reason, key=error.key, source=source) from None


def rules_from_mapping(data: Mapping[str, Any], *, source: str) -> RuleSet:
    if "base" not in data:
        raise RulesError('names no base preset: add a line such as base = "pagat"', key="base")
    try:
        base = get_preset(_str(data["base"], "base"))
    except RulesError as error:
        raise RulesError(error.reason, key="base") from None
    overrides = {}
    for key, value in data.items():
        if key == "base":
            continue
        if key not in CONVERTERS:
            raise RulesError(
                "is not a rule parameter (see `handfoot rules show pagat` for them all)", key=key
            )
        overrides[key] = CONVERTERS[key](value, key)
    overrides.setdefault("name", source)
    return _apply(base, overrides)


def _apply(base: RuleSet, overrides: dict[str, Any]) -> RuleSet:
    deals = overrides.get("deals", base.deals)
    if not 1 <= deals <= MOST_DEALS:
        raise RulesError(f"must be between 1 and {MOST_DEALS} (it is {deals})", key="deals")
    deck = overrides.get("deck", base.deck)
    default_values = DEFAULT_VALUES[deck] if deck is not base.deck else base.card_values
    overrides["card_values"] = dict(default_values) | overrides.get("card_values", {})
    if isinstance(overrides.get("go_out"), BookRequirement):
        overrides["go_out"] = (overrides["go_out"],) * deals
    for key in PER_DEAL:
        inherited = getattr(base, key)
        if key in overrides or deals == base.deals:
            continue
        if deals < len(inherited):
            overrides[key] = inherited[:deals]  # fewer deals: the first ones keep their rules
        elif len(set(inherited)) == 1:
            overrides[key] = inherited[:1] * deals  # the same in every deal stays so
    return replace(base, **overrides)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return f'"{NONE}"'
    if isinstance(value, Enum):
        return _toml_value(value.value)
    if isinstance(value, str):
        return '"' + "".join(_toml_char(char) for char in value) + '"'
    if isinstance(value, BookRequirement):
        counts = {k: getattr(value, k) for k in ("clean", "dirty", "wild", "any")}
        inner = ", ".join(f"{k} = {n}" for k, n in counts.items() if n)
        return f"{{ {inner} }}" if inner else "{}"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return str(value)


def _toml_char(char: str) -> str:
    if char in '"\\':
        return "\\" + char
    if ord(char) < 0x20 or ord(char) == 0x7F:  # TOML forbids raw control characters
        return f"\\u{ord(char):04x}"
    return char


def rules_to_toml(rules: RuleSet) -> str:
    """Every parameter of ``rules`` as a house-rules file based on its own preset."""
    base = rules.name if _is_preset(rules) else _base_of(rules)
    lines = [f'base = "{base}"']
    for key in CONVERTERS:
        if key == "card_values":
            continue
        value = getattr(rules, key)
        if key == "go_out" and len(set(value)) == 1:
            value = value[0]
        lines.append(f"{key} = {_toml_value(value)}")
    lines.append("")
    lines.append("[card_values]")
    for card, points in rules.card_values.items():
        card_key = card if card.isalpha() else f'"{card}"'
        lines.append(f"{card_key} = {points}")
    return "\n".join(lines) + "\n"


def _is_preset(rules: RuleSet) -> bool:
    try:
        return get_preset(rules.name) == rules
    except RulesError:
        return False


def _base_of(rules: RuleSet) -> str:
    # Every parameter is written out, so any preset of the same deck reproduces the rules.
    return "handnfoot" if rules.deck is Deck.SPECIAL else "pagat"

"""Reading a deal from its JSON form (already decoded), with an error that says where.

The format (``handfoot score``)::

    {"rules": "pagat", "deal": 1,
     "teams": [{"name": "North-South",
                "melds": [["KR","KB","KR","KB","KR","KB","KR"], ["9R","9B","2B"]],
                "red_threes": ["3R"], "hand": ["5B","JK"], "foot": [],
                "went_out": false, "picked_22": false}]}

Card lists may also be one string of tokens (``"KR KB KR"``). Unknown keys are errors: a typo
such as ``"wentout"`` must never be silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.cards import Card, Deck, parse_cards
from engine.errors import DealFormatError, HandfootError
from engine.presets import get_preset
from engine.rules import RuleSet
from engine.scoring import Deal, Side

DEAL_KEYS = {"rules", "deal", "teams"}
SIDE_REQUIRED = ("name", "melds", "red_threes", "hand", "foot")
SIDE_OPTIONAL = ("went_out", "picked_22")

RulesResolver = Callable[[str], RuleSet]


def deal_from_json(
    data: Any,
    *,
    rules: RuleSet | None = None,
    resolve: RulesResolver = get_preset,
    path: str = "",
) -> Deal:
    """Build a :class:`Deal`. ``rules`` overrides the file's ``"rules"``; otherwise that name is
    given to ``resolve`` (default: the presets), and a file without one plays ``pagat``."""
    where = path or "the deal"
    if not isinstance(data, Mapping):
        raise DealFormatError(f"{where} must be a JSON object, not {_kind(data)}")
    _no_unknown_keys(data, DEAL_KEYS, where)
    if rules is None:
        name = data.get("rules", "pagat")
        if not isinstance(name, str):
            raise DealFormatError('"rules" must be a preset name or a rules file', path=where)
        rules = resolve(name)
    if "deal" not in data:
        raise DealFormatError('missing field "deal" (the deal number, 1 to 4)', path=where)
    number = data["deal"]
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealFormatError(f'"deal" must be a whole number, not {_kind(number)}', path=where)
    try:
        rules.check_deal(number)
    except HandfootError as error:
        raise DealFormatError(str(error), path=where) from None
    teams = _field(data, "teams", list, where)
    if not teams:
        raise DealFormatError('"teams" is empty: a deal needs at least one side', path=where)
    sides = tuple(
        _side(team, rules.deck, f"{path + ': ' if path else ''}teams[{i}]")
        for i, team in enumerate(teams)
    )
    names = [side.name for side in sides]
    for name in names:
        if names.count(name) > 1:
            raise DealFormatError(f"two sides are both named {name!r}", path=where)
    return Deal(rules, number, sides)


def _side(team: Any, deck: Deck, where: str) -> Side:
    if not isinstance(team, Mapping):
        raise DealFormatError(f"{where} must be an object, not {_kind(team)}")
    _no_unknown_keys(team, set(SIDE_REQUIRED + SIDE_OPTIONAL), where)
    for key in SIDE_REQUIRED:
        if key not in team:
            _missing(where, key)
    name = _field(team, "name", str, where)
    if not name.strip():
        raise DealFormatError('"name" is empty', path=where)
    melds = _field(team, "melds", list, where)
    return Side(
        name=name,
        melds=tuple(_cards(meld, deck, f"{where}.melds[{i}]") for i, meld in enumerate(melds)),
        red_threes=_cards(team["red_threes"], deck, f"{where}.red_threes"),
        hand=_cards(team["hand"], deck, f"{where}.hand"),
        foot=_cards(team["foot"], deck, f"{where}.foot"),
        went_out=_flag(team, "went_out", where),
        picked_22=_flag(team, "picked_22", where),
    )


def game_from_json(
    data: Any,
    *,
    rules: RuleSet | None = None,
    resolve: RulesResolver = get_preset,
    path: str = "",
) -> list[Deal]:
    """A game is a JSON list of deals in order (or an object with that list under "deals")."""
    if isinstance(data, Mapping):
        _no_unknown_keys(data, {"deals"}, path or "the game")
        data = data.get("deals")
    if not isinstance(data, list) or not data:
        raise DealFormatError("a game must be a non-empty JSON list of deals", path=path)
    prefix = f"{path}: " if path else ""
    return [
        deal_from_json(deal, rules=rules, resolve=resolve, path=f"{prefix}deal {i}")
        for i, deal in enumerate(data, start=1)
    ]


def _cards(value: Any, deck: Deck, where: str) -> tuple[Card, ...]:
    try:
        if isinstance(value, str):
            return parse_cards(value, deck)
        if not isinstance(value, list):
            raise DealFormatError(f"{where} must be a list of cards, not {_kind(value)}")
        cards = []
        for i, token in enumerate(value):
            if not isinstance(token, str):
                raise DealFormatError(f'{where}[{i}] must be a card like "KR", not {_kind(token)}')
            cards.extend(parse_cards(token, deck))
        return tuple(cards)
    except DealFormatError:
        raise
    except HandfootError as error:
        raise DealFormatError(str(error), path=where) from None


def _field(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        _missing(where, key)
    value = data[key]
    if not isinstance(value, kind):
        expected = {list: "a list", str: "text", dict: "an object"}[kind]
        raise DealFormatError(f'"{key}" must be {expected}, not {_kind(value)}', path=where)
    return value


def _flag(data: Mapping[str, Any], key: str, where: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise DealFormatError(f'"{key}" must be true or false, not {_kind(value)}', path=where)
    return value


def _missing(where: str, key: str) -> None:
    raise DealFormatError(f'missing field "{key}"', path=where)


def _no_unknown_keys(data: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise DealFormatError(
            f"unknown field {unknown[0]!r} (known: {', '.join(sorted(known))})", path=where
        )


def _kind(value: Any) -> str:
    names = {
        type(None): "null",
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "text",
        list: "a list",
        dict: "an object",
    }
    return names.get(type(value), type(value).__name__)

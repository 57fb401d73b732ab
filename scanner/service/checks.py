"""Checks on what the page sends before the service acts on it: each refusal is a
:class:`BadInput` naming the field and the value."""

from __future__ import annotations

from typing import Any

from engine import (
    HandfootError,
    RuleSet,
    UnknownCardError,
    get_preset,
    parse_cards,
    rules_from_toml,
)
from scanner.service.errors import BadInput, BadRules
from scanner.service.panel import MODES

MAX_SIDES = 8
MAX_NAME = 40


def check_mode(mode: Any) -> str:
    if mode not in MODES:
        raise BadInput("mode", mode, f"it must be one of {', '.join(MODES)}")
    return mode


def check_sides(sides: Any) -> list[dict]:
    """A new game's sides: 1 to 8, each with a name (distinct, short) and its players."""
    if not isinstance(sides, list) or not sides:
        raise BadInput("sides", sides, "a game needs at least one side")
    if len(sides) > MAX_SIDES:
        raise BadInput("sides", len(sides), f"a game has at most {MAX_SIDES} sides")
    checked, seen = [], set()
    for number, side in enumerate(sides, start=1):
        name = side.get("name") if isinstance(side, dict) else None
        if not isinstance(name, str) or not name.strip():
            raise BadInput(f"name of side {number}", name, "every side needs a name")
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            raise BadInput(f"name of side {number}", name, f"keep it to {MAX_NAME} characters")
        if name.casefold() in seen:
            raise BadInput(f"name of side {number}", name, "two sides have that name")
        seen.add(name.casefold())
        players = side.get("players", [])
        if isinstance(players, str):
            players = [p for p in (part.strip() for part in players.split(",")) if p]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise BadInput(f"players of {name}", players, "give a list of names")
        players = [" ".join(p.split())[:MAX_NAME] for p in players if p.strip()]
        checked.append({"name": name, "players": players})
    return checked


def parse_rules(preset: str | None, toml: str | None) -> tuple[RuleSet, str, str]:
    """(rules, the name the game records, the house-rules text or "")."""
    if toml is not None and toml.strip():
        try:
            rules = rules_from_toml(toml, source="house rules")
        except HandfootError as error:
            raise BadRules(str(error)) from None
        return rules, rules.name, toml
    spec = (preset or "pagat").strip()
    try:
        rules = get_preset(spec)
    except HandfootError as error:
        raise BadInput("rules", spec, str(error)) from None
    return rules, spec, ""


def typed_cards(what: str, text: Any, deck) -> tuple[str, ...]:
    if not isinstance(text, str):
        raise BadInput(what, text, "type the cards as codes such as KR 10B JK")
    try:
        return tuple(card.code for card in parse_cards(text, deck))
    except UnknownCardError as error:
        raise BadInput("card code", error.token, str(error)) from None

"""Checks on what the page sends before the service acts on it: each refusal is a
:class:`BadInput` naming the field and the value."""

from __future__ import annotations

import re
from typing import Any

from engine import (
    HandfootError,
    RuleSet,
    UnknownCardError,
    get_preset,
    parse_cards,
    rules_from_toml,
)
from scanner.service.errors import BadInput, BadRules, shown
from scanner.service.panel import MODES
from scanner.service.said import Said, nothing

MAX_SIDES = 8
MAX_NAME = 40
MAX_PLAYERS = 12  # per side
MAX_GAME_NAME = 80
# Control characters (NUL, ESC, ...) and the marks that turn text right-to-left: a name shows
# as it was typed on every page and in every log line, and cannot forge another line.
UNSEEN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean_name(text: str, limit: int = MAX_NAME) -> str:
    """A name as the page shows it: runs of white space (new lines too) as one space, control
    characters dropped, cut at ``limit``.

    >>> clean_name("Bob\\nERROR forged"), clean_name("Ann\\x00\\x1b[31m")
    ('Bob ERROR forged', 'Ann[31m')
    """
    return UNSEEN.sub("", " ".join(text.split()))[:limit].strip()


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
        if len(" ".join(name.split())) > MAX_NAME:
            raise BadInput(f"name of side {number}", name, f"keep it to {MAX_NAME} characters")
        name = clean_name(name)
        if not name:
            raise BadInput(f"name of side {number}", side.get("name"), "every side needs a name")
        if name.casefold() in seen:
            raise BadInput(f"name of side {number}", name, "two sides have that name")
        seen.add(name.casefold())
        players = side.get("players", [])
        if isinstance(players, str):
            players = [p for p in (part.strip() for part in players.split(",")) if p]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise BadInput(f"players of {name}", players, "give a list of names")
        if len(players) > MAX_PLAYERS:
            raise BadInput(
                f"players of {name}", len(players), f"a side has at most {MAX_PLAYERS} players"
            )
        seats = side.get("seats")
        if seats is None:
            players = [clean for clean in (clean_name(p) for p in players) if clean]
            checked.append({"name": name, "players": players})
            continue
        if not isinstance(seats, list) or len(seats) != len(players):
            raise BadInput(f"seats of {name}", seats, "give one seat number per player")
        seated = [(clean_name(p), seat) for p, seat in zip(players, seats, strict=True)]
        seated = [(player, seat) for player, seat in seated if player]
        checked.append(
            {
                "name": name,
                "players": [player for player, _ in seated],
                "seats": [seat for _, seat in seated],
            }
        )
    return check_seats(checked)


def check_seats(sides: list[dict]) -> list[dict]:
    """Seats, where given: every player of the game has one, numbered 1 to the number of
    players around the table, no two alike. A game where nobody picked a seat keeps none."""
    given = [seat for side in sides for seat in side.get("seats", []) if seat is not None]
    if not given:
        return [{"name": side["name"], "players": side["players"]} for side in sides]
    players = sum(len(side["players"]) for side in sides)
    for side in sides:
        seats = side.get("seats") or [None] * len(side["players"])
        for player, seat in zip(side["players"], seats, strict=True):
            if seat is None:
                raise BadInput(f"seat of {player}", seat, "give every player a seat, or none")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= players:
                raise BadInput(f"seat of {player}", seat, f"the seats are 1 to {players}")
        side["seats"] = seats
    if len(set(given)) != len(given):
        seat = next(seat for seat in given if given.count(seat) > 1)
        raise BadInput("seat", seat, "two players have that seat")
    return sides


TOML_AT = re.compile(r"at line (\d+), column (\d+)")
SEE_COMMAND = " (see `handfoot rules show pagat` for them all)"


def rules_sentence(text: str, error: HandfootError) -> str:
    """A house-rules text's problem as a player at the table reads it: the line that cannot be
    read, quoted, and how values are written, rather than the TOML reader's own words; no
    command to run.

    >>> from engine import rules_from_toml
    >>> try:
    ...     rules_from_toml('base = "pagat"\\nclean_bonus = 2OO', source="house rules")
    ... except HandfootError as error:
    ...     print(rules_sentence('base = "pagat"\\nclean_bonus = 2OO', error))  # doctest: +ELLIPSIS
    House rules, line 2 ("clean_bonus = 2OO") cannot be read: write numbers with digits only ...
    """
    reason = getattr(error, "reason", str(error))
    key = getattr(error, "key", None)
    found = TOML_AT.search(reason)
    if "not valid TOML" in reason and found:
        number = int(found.group(1))
        lines = text.splitlines()
        line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
        quoted = f' ("{line}")' if line else ""
        return (
            f"House rules, line {number}{quoted} cannot be read: write numbers with digits only "
            '(500), words in quotes ("bonus"), yes and no as true and false.'
        )
    reason = reason.replace(SEE_COMMAND, ": the house rules form lists every rule there is")
    return f"House rules, {key}: {reason}" if key else f"House rules: {reason}"


def parse_rules(preset: str | None, toml: str | None) -> tuple[RuleSet, str, str]:
    """(rules, the name the game records, the house-rules text or "")."""
    if toml is not None and toml.strip():
        try:
            rules = rules_from_toml(toml, source="house rules")
        except HandfootError as error:
            raise BadRules(rules_sentence(toml, error)) from None
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
        raise BadInput("card code", error.token, str(error), unknown_card(error, deck)) from None


# What the engine adds when a typed card is not one of the deck's, as the page says it.
CARD_HINTS = {
    "a rank needs its colour, R or B: KR, 10B": "hint_colour",
    "it belongs to the special Hand 'N Foot deck": "hint_special_card",
    "its cards are 1–12, LORD, LADY, VILLAIN, JESTER and JOKER": "hint_special_deck",
}


def unknown_card(error: UnknownCardError, deck) -> Said | None:
    """A typed card that is not one of the deck's, as a sentence the page can say in its
    language (None where the engine's hint is not one the page knows)."""
    hint = getattr(error, "hint", "")
    if hint and hint not in CARD_HINTS:
        return None
    quoted = shown(error.token)
    return Said.of(
        "unknown_card",
        shown=quoted,
        deck=Said.of(f"deck_{deck.value}"),
        hint=Said.of(CARD_HINTS[hint]) if hint else nothing(),
    )

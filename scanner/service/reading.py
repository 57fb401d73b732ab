"""A scan's reading as the page shows and corrects it, and what the engine says about it (pure
functions on plain dicts: the reading is what the game record stores).

A reading keeps the cards where the scan put them: ``melds`` (lists of cards), ``red_threes``,
``leftovers`` and ``unplaced`` (seen but counted nowhere, each with its reason). Every card has
an ``id`` unique within its scan, so two phones correcting the same scan at once never edit the
wrong card. A correction gives a new reading; :func:`score_reading` asks the engine again.

>>> from engine import get_preset
>>> reading = new_reading("table", melds=[["KR", "KB", "2R"]])
>>> reading = correct(reading, "add", {"code": "KH", "to": "meld:1"}, get_preset("pagat").deck)
>>> view = score_reading(reading, get_preset("pagat"), 1)
>>> [card["code"] for card in view["melds"][0]["cards"]], view["melds"][0]["legal"]
(['KR', 'KB', '2R', 'KR'], True)
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import Any

from engine import (
    Card,
    Deck,
    HandfootError,
    RuleSet,
    UnknownCardError,
    check_meld,
)
from engine.scoring import LINE_TITLES
from scanner.service.errors import BadInput, NoSuchThing
from scanner.table.modes import leftover_totals, meld_totals, table_totals
from scanner.vision.legibility import advice_for

FORMAT = "handfoot-reading/1"
MODES = ("meld", "table", "leftovers")
ACTIONS = ("change", "move", "add", "delete", "accept", "remove_meld")
GROUPS = ("melds", "red_threes", "leftovers", "unplaced")


# --- building a reading ------------------------------------------------------------------------


def reading_from_result(
    result: Any,
    *,
    frames: int = 1,
    frames_read: int = 1,
    index_px: float | None = None,
    small_px: float | None = None,
) -> dict:
    """The reading of a finished scan, from its :class:`~scanner.table.modes.TableResult`: each
    card with its code, the vote's confidence and ``check``, and where it lies in the frame
    (corrections plus these are what retraining needs), and the median size of the cards'
    corner indices in the frame and the size the smallest fifth of them lie under (px: how
    well the camera sees them, from which the view gives the players advice,
    ``scanner/vision/legibility.py``)."""
    next_id = 1

    def card(reading: Any, reason: str | None = None) -> dict:
        nonlocal next_id
        data = reading.as_json()
        out = {
            "id": next_id,
            "code": data["code"],
            "check": bool(data["check"]),
            "confidence": data["confidence"],
            "box": data["index_box"],
            "polygon": data["polygon"],
        }
        if reason is not None:
            out["reason"] = reason
        next_id += 1
        return out

    melds = [[card(reading) for reading in meld.cards] for meld in result.melds]
    red_threes = [card(reading) for reading in result.red_threes]
    leftovers = [card(reading) for reading in result.leftovers]
    unplaced = [card(item.card, item.reason) for item in result.unplaced]
    strays = [card(item.card, item.reason) for item in result.strays]
    return {
        "format": FORMAT,
        "mode": result.mode.value,
        "melds": melds,
        "red_threes": red_threes,
        "leftovers": leftovers,
        "unplaced": unplaced,
        "strays": strays,  # shown on the image, neither counted nor asked about
        "next_id": next_id,
        "frames": frames,
        "frames_read": frames_read,
        "index_px": None if index_px is None else round(index_px, 1),
        "small_px": None if small_px is None else round(small_px, 1),
    }


def new_reading(
    mode: str,
    *,
    melds: Iterable[Iterable[str]] = (),
    red_threes: Iterable[str] = (),
    leftovers: Iterable[str] = (),
) -> dict:
    """A reading from codes alone (typed cards, tests)."""
    counter = iter(range(1, 10_000))

    def cards(codes: Iterable[str]) -> list[dict]:
        return [{"id": next(counter), "code": code, "check": False} for code in codes]

    reading = {
        "format": FORMAT,
        "mode": mode,
        "melds": [cards(meld) for meld in melds],
        "red_threes": cards(red_threes),
        "leftovers": cards(leftovers),
        "unplaced": [],
    }
    reading["next_id"] = next(counter)
    return reading


# --- looking inside ------------------------------------------------------------------------------


def all_cards(reading: dict) -> Iterator[tuple[str, int | None, dict]]:
    """Every card with where it lies: (group, meld number from 1 or None, card)."""
    for number, meld in enumerate(reading.get("melds", []), start=1):
        for card in meld:
            yield "melds", number, card
    for group in ("red_threes", "leftovers", "unplaced"):
        for card in reading.get(group, []):
            yield group, None, card


def check_cards(reading: dict) -> list[dict]:
    """The cards a person should look at before the reading counts: unsure ones not yet
    accepted, and every card that counts nowhere."""
    return [
        card
        for group, _, card in all_cards(reading)
        if group == "unplaced" or (card.get("check") and not card.get("accepted"))
    ]


def codes(cards: Iterable[dict]) -> list[str]:
    return [card["code"] for card in cards]


# --- corrections -------------------------------------------------------------------------------


def correct(reading: dict, action: str, detail: dict, deck: Deck) -> dict:
    """The reading after one correction (the given reading is left as it was).

    - ``change`` ``{"card": id, "code": "KR"}``: the camera misread a card.
    - ``move`` ``{"card": id, "to": "meld:2" | "new" | "red_threes" | "leftovers"}``.
    - ``add`` ``{"code": "KR", "to": …}``: a card the camera missed.
    - ``delete`` ``{"card": id}``: a card that is not there (or not in play).
    - ``accept`` ``{"card": id}``: an unsure card was read right.
    - ``remove_meld`` ``{"meld": n}``: a whole meld that is not this side's (the camera saw
      the other side's table too) or not on the table at all.
    """
    if action not in ACTIONS:
        raise BadInput("action", action, f"it must be one of {', '.join(ACTIONS)}")
    reading = copy.deepcopy(reading)
    if action == "remove_meld":
        number = detail.get("meld")
        if isinstance(number, bool) or not isinstance(number, int):
            raise BadInput("meld", number, "it must be the number of a meld of this scan")
        if not 1 <= number <= len(reading["melds"]):
            raise NoSuchThing("meld", f"{number} in this scan")
        del reading["melds"][number - 1]
    elif action == "add":
        code = card_code(detail.get("code"), deck)
        card = {"id": _new_id(reading), "code": code, "check": False, "added": True}
        _place(reading, card, detail.get("to"))
    else:
        card = _find(reading, detail.get("card"))
        if action == "change":
            code = card_code(detail.get("code"), deck)
            if code != card["code"]:
                card.setdefault("read_as", card["code"])
            card |= {"code": code, "check": False, "corrected": True}
            if _group_of(reading, card) == "unplaced":
                # A misread card from the wrong deck: once its code is right it counts where
                # the scan would have put it had it read it right; the page can move it.
                _remove(reading, card)
                card.pop("reason", None)
                _place(reading, card, "leftovers" if reading["mode"] == "leftovers" else "new")
        elif action == "move":
            target = detail.get("to")
            _check_target(reading, target)
            _remove(reading, card)
            card.pop("reason", None)
            _place(reading, card, target)
        elif action == "delete":
            _remove(reading, card)
        else:  # accept
            card["accepted"] = True
    reading["melds"] = [meld for meld in reading["melds"] if meld]
    return reading


def card_code(value: Any, deck: Deck) -> str:
    """The canonical code of a card the page sent, or :class:`BadInput` naming the code."""
    if not isinstance(value, str) or not value.strip():
        raise BadInput("card code", value, "give a card such as KR, 10B or JK")
    try:
        return Card.from_code(value.strip(), deck).code
    except UnknownCardError as error:
        raise BadInput("card code", value, str(error)) from None


def _new_id(reading: dict) -> int:
    ids = [card["id"] for _, _, card in all_cards(reading)]
    new = max([reading.get("next_id", 1), *(i + 1 for i in ids)])
    reading["next_id"] = new + 1
    return new


def _find(reading: dict, card_id: Any) -> dict:
    if isinstance(card_id, bool) or not isinstance(card_id, int):
        raise BadInput("card", card_id, "it must be the number of a card of this scan")
    for _, _, card in all_cards(reading):
        if card["id"] == card_id:
            return card
    raise NoSuchThing("card", f"{card_id} in this scan")


def _group_of(reading: dict, card: dict) -> str:
    return next(group for group, _, other in all_cards(reading) if other is card)


def _remove(reading: dict, card: dict) -> None:
    for meld in reading["melds"]:
        if any(other is card for other in meld):
            meld[:] = [other for other in meld if other is not card]
            return
    for group in ("red_threes", "leftovers", "unplaced"):
        reading[group] = [other for other in reading[group] if other is not card]


def targets(reading: dict) -> list[str]:
    """Where a card of this reading can go."""
    if reading["mode"] == "leftovers":
        return ["leftovers"]
    return [f"meld:{n}" for n in range(1, len(reading["melds"]) + 1)] + ["new", "red_threes"]


def _check_target(reading: dict, target: Any) -> None:
    if target not in targets(reading):
        shown = ", ".join(targets(reading))
        raise BadInput("place", target, f"a card of this scan can go to {shown}")


def _place(reading: dict, card: dict, target: Any) -> None:
    _check_target(reading, target)
    if target == "new":
        reading["melds"].append([card])
    elif target.startswith("meld:"):
        reading["melds"][int(target.split(":")[1]) - 1].append(card)
    else:
        reading[target].append(card)


# --- what the engine says ----------------------------------------------------------------------


def engine_cards(cards: Iterable[dict], deck: Deck) -> tuple[Card, ...]:
    return tuple(Card.from_code(card["code"], deck) for card in cards)


def score_reading(reading: dict, rules: RuleSet, deal: int) -> dict:
    """The reading as the page shows it: every meld with the engine's verdict (legality, kind,
    reasons in the engine's words, points), the table's problems and the mode's totals."""
    mode = reading["mode"]
    if mode == "leftovers":
        return _score_leftovers(reading, rules, deal)
    verdicts = [check_meld(engine_cards(meld, rules.deck), rules) for meld in reading["melds"]]
    melds = []
    for number, (meld, verdict) in enumerate(zip(reading["melds"], verdicts, strict=True), 1):
        melds.append(
            {
                "number": number,
                "cards": meld,
                "kind": verdict.label,
                "legal": verdict.legal,
                "complete": verdict.complete,
                "problems": [problem.message for problem in verdict.problems],
                # the same problems as sentence keys and values, said in the page's language
                "problems_said": [problem.said() for problem in verdict.problems],
                "card_points": verdict.card_points,
                "bonus": verdict.book_bonus + verdict.lady_bonus,
                "points": verdict.points,
            }
        )
    for meld in melds:
        meld["counted"] = meld["legal"] or mode != "table"
    if mode == "table":
        red_threes = engine_cards(reading["red_threes"], rules.deck)
        totals, problems = table_totals(verdicts, red_threes, rules, deal)
        if not all(verdict.legal for verdict in verdicts):
            # An illegal meld is shown as not counted (with the engine's reasons): the total
            # is what the legal melds are worth, as the players will count it once it is fixed.
            legal = [verdict for verdict in verdicts if verdict.legal]
            totals = table_totals(legal, red_threes, rules, deal)[0]
    else:
        totals, problems = meld_totals(verdicts, rules, deal, initial=True)
    view = _view(reading, melds, [_where(problem) for problem in problems], totals)
    view["problems_said"] = [where_said(problem) for problem in problems]
    return view


def _score_leftovers(reading: dict, rules: RuleSet, deal: int) -> dict:
    held = engine_cards(reading["leftovers"], rules.deck)
    return _view(reading, [], [], leftover_totals(held, rules, deal)) | {"problems_said": []}


def where_said(problem: Any) -> dict:
    """A problem of the engine as a page says it in its language: where it is, and its
    sentence key and values (``scanner/web/i18n.py`` says them)."""
    return {"side": problem.side, "meld": problem.meld, "said": problem.said()}


def _view(reading: dict, melds: list, problems: list[str], totals: dict) -> dict:
    checks = check_cards(reading)
    advice = advice_for(reading.get("small_px"))
    return {
        "mode": reading["mode"],
        "melds": melds,
        "red_threes": reading["red_threes"],
        "leftovers": reading["leftovers"],
        "unplaced": reading["unplaced"],
        "problems": problems,
        "totals": totals,
        "rows": score_rows(reading["mode"], totals),
        "legal": not problems and all(meld["legal"] for meld in melds),
        "check_count": len(checks),
        "check_ids": [card["id"] for card in checks],
        # None in readings stored before they were measured
        "index_px": reading.get("index_px"),
        "small_px": reading.get("small_px"),
        "advice": None if advice is None else advice.message,
        "targets": targets(reading),
        "picture": picture_cards(reading, melds),
    }


def picture_cards(reading: dict, melds: list[dict]) -> list[dict]:
    """Every card read with where it lies in the picture (cards added by hand have no place),
    for drawing the picture with each card outlined and named: its code, whether it is to
    check or was corrected, and where it counts (``where``, as the card list says it)."""
    legal = {f"meld:{meld['number']}": meld["legal"] for meld in melds}
    groups = [(f"meld:{n}", cards) for n, cards in enumerate(reading["melds"], 1)]
    groups += [(name, reading[name]) for name in ("red_threes", "leftovers", "unplaced")]
    shown = []
    for where, cards in groups:
        for card in cards:
            if not card.get("polygon"):
                continue
            shown.append(
                {
                    "id": card["id"],
                    "code": card["code"],
                    "polygon": card["polygon"],
                    "box": card.get("box"),
                    "check": bool(card.get("check")) and not card.get("accepted"),
                    "corrected": bool(card.get("corrected")),
                    "where": "" if where == "unplaced" else where,
                    "counted": where != "unplaced" and legal.get(where, True),
                }
            )
    return shown


# A scan's totals under the names of the deal's lines (engine.scoring.LINE_TITLES), so that a
# scan and the deal's preview name and split the same points the same way.
ROW_LINES = {
    "table": ("melded_points", "book_bonuses", "red_threes", "lady_bonuses"),
    "leftovers": (("cards", "hand"), "red_threes", "lady_penalties"),
}


def score_rows(mode: str, totals: dict) -> list[dict]:
    """The scan's points line by line, each with the title the deal's breakdown gives it;
    lines worth nothing are left out. Meld checks have no rows (their points are not a
    deal's)."""
    rows = []
    for entry in ROW_LINES.get(mode, ()):
        key, line = entry if isinstance(entry, tuple) else (entry, entry)
        points = int(totals.get(key, 0))
        if points:
            rows.append({"line": line, "title": LINE_TITLES[line], "points": points})
    return rows


def _where(problem) -> str:
    return f"meld {problem.meld}: {problem.message}" if problem.meld else problem.message


def validate_reading(reading: dict, rules: RuleSet) -> None:
    """Every counted card is a card of the rules' deck (a reading stored by a game of other
    rules would fail here rather than deep in the engine)."""
    for group, _, card in all_cards(reading):
        if group != "unplaced":
            try:
                Card.from_code(card["code"], rules.deck)
            except HandfootError as error:
                raise BadInput("card code", card["code"], str(error)) from None

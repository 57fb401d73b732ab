"""The end of a deal: each side's corrected table and leftovers, and its flags, as the engine's
deal (the ``handfoot score`` JSON), scored (pure functions).

>>> from engine import get_preset
>>> from scanner.service.reading import new_reading
>>> side = SideEnd("Us", table=new_reading("table", melds=[["KR"] * 7], red_threes=["3R"]),
...                leftovers=new_reading("leftovers", leftovers=["5B"]))
>>> deal = deal_json("pagat", 1, [side])
>>> deal["teams"][0]["melds"], deal["teams"][0]["hand"]
([['KR', 'KR', 'KR', 'KR', 'KR', 'KR', 'KR']], ['5B'])
>>> score(deal, get_preset("pagat"))["teams"][0]["total"]  # 70 + 500 + 100 - 5
665
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import DealResult, RuleSet, deal_from_json, score_deal
from scanner.service.reading import codes


@dataclass(frozen=True)
class SideEnd:
    """What one side has at the end of the deal: its table and leftovers readings (None when
    not scanned), cards typed in for the hand and an untaken foot, and the flags."""

    name: str
    table: dict | None = None
    leftovers: dict | None = None
    typed_hand: tuple[str, ...] = ()
    typed_foot: tuple[str, ...] = ()
    went_out: bool = False
    picked_22: bool = False


def deal_json(rules_name: str, number: int, sides: Sequence[SideEnd]) -> dict:
    """The deal in the engine's deal-file form (``handfoot score`` reads it)."""
    teams = []
    for side in sides:
        table = side.table or {"melds": [], "red_threes": []}
        hand = codes(side.leftovers["leftovers"]) if side.leftovers else []
        teams.append(
            {
                "name": side.name,
                "melds": [codes(meld) for meld in table["melds"]],
                "red_threes": codes(table["red_threes"]),
                "hand": hand + list(side.typed_hand),
                "foot": list(side.typed_foot),
                "went_out": side.went_out,
                "picked_22": side.picked_22,
            }
        )
    return {"rules": rules_name, "deal": number, "teams": teams}


def score(deal: dict, rules: RuleSet) -> dict:
    """The deal scored, exactly as ``handfoot score --json`` prints it."""
    return result_json(score_deal(deal_from_json(deal, rules=rules)))


def result_json(result: DealResult) -> dict:
    """``handfoot score --json``'s form of a scored deal."""
    return result.to_dict()


def problem_sentences(result: dict) -> list[str]:
    """The problems of a scored deal as sentences that say where."""
    out = []
    for problem in result.get("problems", []):
        where = ""
        if problem.get("side"):
            where = f"{problem['side']}"
            if problem.get("meld"):
                where += f", meld {problem['meld']}"
            where += ": "
        out.append(where + problem["message"])
    return out


def problems_said(result: dict) -> list[dict]:
    """The problems of a scored deal as a page says them in its language: where each is, and
    its sentence key and values (``problem["said"]``, None for one without a key)."""
    return [
        {
            "side": p.get("side"),
            "meld": p.get("meld"),
            "said": p.get("said"),
            "message": p["message"],
        }
        for p in result.get("problems", [])
    ]

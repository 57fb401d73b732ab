"""``handfoot score`` (one deal from JSON) and ``handfoot game`` (a list of deals)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from engine import (
    DealResult,
    GameResult,
    Problem,
    RuleSet,
    deal_from_json,
    format_cards,
    game_from_json,
    rules_from_toml,
    score_deal,
    score_game,
)
from engine.scoring import LINE_TITLES
from scanner.cli.common import EXIT_NO, EXIT_OK, print_json, read_json
from scanner.rules_files import load_rules


def register(subcommands: argparse._SubParsersAction) -> None:
    score = subcommands.add_parser(
        "score",
        help="score one deal given as JSON",
        description="Score one deal. FILE is a JSON deal (- reads standard input). "
        "Exit 0: scored; 1: the deal is impossible; 2: the input cannot be read.",
    )
    score.add_argument("file", metavar="FILE", help="the deal as JSON, or - for standard input")
    score.add_argument("--rules", help="preset or house-rules file, instead of the file's own")
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.set_defaults(run=run_score)

    game = subcommands.add_parser(
        "game",
        help="score a game: a JSON list of deals, with running totals and the winner",
        description="FILE is a JSON list of deals in the `score` format (- reads standard input).",
    )
    game.add_argument("file", metavar="FILE", help="the deals as JSON, or - for standard input")
    game.add_argument("--rules", help="preset or house-rules file, instead of the files' own")
    game.add_argument("--json", action="store_true", help="print one JSON object")
    game.set_defaults(run=run_game)


def _resolver(args: argparse.Namespace, folder: Path | None):
    override = load_rules(args.rules) if args.rules else None
    return override, lambda spec: load_rules(spec, relative_to=folder)


def run_score(args: argparse.Namespace) -> int:
    data, folder = read_json(args.file)
    override, resolve = _resolver(args, folder)
    deal = deal_from_json(data, rules=override, resolve=resolve)
    result = score_deal(deal)
    if args.json:
        print_json(deal_as_json(result))
    else:
        print_deal(result)
    return EXIT_OK if result.possible else EXIT_NO


def page_export(data: Any) -> tuple[list, str] | None:
    """The table page's own game export (``/api/games/N/export.json``): its deals as a list,
    and the game's house-rules text ("" for a preset). None for any other JSON."""
    if not isinstance(data, dict) or "game" not in data or not isinstance(data["game"], dict):
        return None
    deals = data.get("deals")
    if not isinstance(deals, list):
        return None
    listed = [entry.get("deal") if isinstance(entry, dict) else entry for entry in deals]
    return listed, str(data["game"].get("rules_toml") or "")


def run_game(args: argparse.Namespace) -> int:
    data, folder = read_json(args.file)
    override, resolve = _resolver(args, folder)
    exported = page_export(data)
    if exported is not None:
        data, house = exported
        if house.strip() and override is None:  # the game's own house rules, as it was played
            override = rules_from_toml(house, source=f"{args.file} (the game's house rules)")
    game = score_game(game_from_json(data, rules=override, resolve=resolve))
    if args.json:
        print_json(game_as_json(game))
    else:
        print_game(game)
    return EXIT_OK if not game.problems else EXIT_NO


def deal_as_json(result: DealResult) -> dict:
    return result.to_dict()


def game_as_json(game: GameResult) -> dict:
    return {
        "rules": game.deals[0].deal.rules.name,
        "deals": [deal_as_json(result) for result in game.deals],
        "teams": [
            {
                "name": side.name,
                "per_deal": list(side.per_deal),
                "running": list(side.running),
                "total": side.total,
            }
            for side in game.sides
        ],
        "finished": game.finished,
        "winner": game.winner,
        "draw": game.draw,
        "leaders": list(game.leaders),
        "problems": [
            problem.to_dict() | {"deal": result.deal.number}
            for result in game.deals
            for problem in result.problems
        ],
    }


def _lines(rules: RuleSet) -> list[str]:
    """The breakdown lines these rules can ever fill, in order."""
    skip = set()
    if not rules.exact_22_bonus:
        skip.add("exact_22")
    if not rules.lady_bonus and not rules.lady_penalty:
        skip |= {"lady_bonuses", "lady_penalties"}
    if not rules.red_three_points:
        skip.add("red_threes")
    return [line for line in LINE_TITLES if line not in skip]


def _table(header: list[str], rows: list[tuple[str, list[int]]], total_title: str) -> list[str]:
    title_width = max(len(title) for title, _ in [*rows, (total_title, [])])
    widths = [max(len(name), 7) for name in header]
    out = [
        " " * title_width
        + "".join(f"  {name:>{w}}" for name, w in zip(header, widths, strict=False))
    ]
    for title, values in rows:
        cells = "".join(f"  {value:>{w}}" for value, w in zip(values, widths, strict=False))
        out.append(f"{title:<{title_width}}{cells}")
    out.insert(-1, "-" * len(out[0]))
    return out


def print_deal(result: DealResult) -> None:
    rules = result.deal.rules
    print(f"Deal {result.deal.number}, rules {rules.name}")
    for side in result.sides:
        print(f"\n{side.name}")
        for number, meld in enumerate(side.breakdown.melds, start=1):
            status = meld.label if meld.legal else "ILLEGAL"
            bonus = meld.book_bonus + meld.lady_bonus
            worth = f"{meld.card_points} + {bonus}" if bonus else f"{meld.card_points}"
            print(f"  {number}. {format_cards(meld.cards):<30} {status:<16} {worth}")
        if not side.breakdown.melds:
            print("  (no melds)")
    print()
    names = [side.name for side in result.sides]
    rows = [
        (LINE_TITLES[line], [getattr(side.breakdown, line) for side in result.sides])
        for line in _lines(rules)
    ]
    rows.append(("Deal total", [side.total for side in result.sides]))
    print("\n".join(_table(names, rows, "Deal total")))
    _print_problems(result.problems, result, prefix="")


def _print_problems(problems: tuple[Problem, ...], result: DealResult, prefix: str) -> None:
    if not problems:
        return
    print(f"\n{prefix}This deal cannot have happened:")
    for problem in problems:
        print(f"  - {_where(problem, result)}{problem.message}")


def _where(problem: Problem, result: DealResult) -> str:
    if problem.side is None:
        return ""
    if problem.meld is None:
        return f"{problem.side}: "
    side = next(s for s in result.sides if s.name == problem.side)
    cards = format_cards(side.breakdown.melds[problem.meld - 1].cards)
    return f"{problem.side}, meld {problem.meld} ({cards}): "


def print_game(game: GameResult) -> None:
    rules = game.deals[0].deal.rules
    print(f"Game of {len(game.deals)} deal(s), rules {rules.name}\n")
    names = [side.name for side in game.sides]
    rows = []
    for index, result in enumerate(game.deals):
        totals = [side.per_deal[index] for side in game.sides]
        rows.append((f"Deal {result.deal.number}", totals))
        rows.append(("  running total", [side.running[index] for side in game.sides]))
    rows.append(("Total", [side.total for side in game.sides]))
    print("\n".join(_table(names, rows, "Total")))
    for result in game.deals:
        _print_problems(result.problems, result, prefix=f"Deal {result.deal.number}: ")
    print()
    if game.winner:
        print(f"Winner: {game.winner}")
    elif game.draw:
        print(f"A draw between {' and '.join(game.leaders)}")
    else:
        left = game.deals_in_game - len(game.deals)
        print(
            f"Leading after {len(game.deals)} deal(s): {' and '.join(game.leaders)} "
            f"({left} deal(s) to play)"
        )

"""``handfoot check-meld``: is a meld legal, and do melds laid together open a deal."""

from __future__ import annotations

import argparse

from engine import (
    MeldCheck,
    Problem,
    RuleSet,
    check_initial,
    check_meld,
    check_side_melds,
    format_cards,
    parse_cards,
)
from scanner.cli.common import EXIT_NO, EXIT_OK, CommandError, print_json
from scanner.rules_files import load_rules


def register(subcommands: argparse._SubParsersAction) -> None:
    parser = subcommands.add_parser(
        "check-meld",
        help="say whether melds are legal, with every reason when not",
        description='Each MELD is one quoted string of cards, e.g. "8R 8B 2R JK". '
        "Exit 0: legal; 1: illegal; 2: the input cannot be read.",
    )
    parser.add_argument("melds", nargs="+", metavar="MELD", help='cards of one meld: "KR KB 2R"')
    parser.add_argument("--rules", default="pagat", help="preset or house-rules file (pagat)")
    parser.add_argument(
        "--initial",
        action="store_true",
        help="the melds are a side's first of the deal: check they reach its minimum",
    )
    parser.add_argument("--deal", type=int, default=None, help="the deal number (default 1)")
    parser.add_argument(
        "--concealed",
        action="store_true",
        help="the melds came from the hand at once (a concealed canasta, where the rules ask)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    deal = args.deal if args.deal is not None else 1
    rules.check_deal(deal)
    melds = []
    for text in args.melds:
        cards = parse_cards(text, rules.deck)
        if not cards:
            raise CommandError('a meld is empty: give its cards in quotes, e.g. "KR KB 2R"')
        melds.append(check_meld(cards, rules))
    context = check_side_melds(melds, rules)
    initial = check_initial(melds, rules, deal, concealed=args.concealed) if args.initial else []
    per_meld = [
        [*meld.problems, *(p for p in context if p.meld == number)]
        for number, meld in enumerate(melds, start=1)
    ]
    legal = not any(per_meld) and not initial
    if args.json:
        print_json(_as_json(rules.name, melds, per_meld, initial, args, deal, legal))
    else:
        _print_text(melds, per_meld, initial, args, deal, rules)
    return EXIT_OK if legal else EXIT_NO


def _as_json(rules_name, melds, per_meld, initial, args, deal, legal) -> dict:
    data = {
        "rules": rules_name,
        "legal": legal,
        "melds": [
            meld.to_dict() | {"legal": not problems, "problems": [p.to_dict() for p in problems]}
            for meld, problems in zip(melds, per_meld, strict=True)
        ],
        "problems": [p.to_dict() for problems in per_meld for p in problems]
        + [p.to_dict() for p in initial],
        "initial": None,
    }
    if args.initial:
        data["initial"] = {
            "deal": deal,
            "points": sum(meld.card_points for meld in melds),
            "met": not initial,
            "problems": [p.to_dict() for p in initial],
        }
    return data


def _print_text(
    melds: list[MeldCheck],
    per_meld: list[list[Problem]],
    initial: list[Problem],
    args: argparse.Namespace,
    deal: int,
    rules: RuleSet,
) -> None:
    minimum = rules.minimum_for(deal)
    width = max(len(format_cards(meld.cards)) for meld in melds)
    for meld, problems in zip(melds, per_meld, strict=True):
        cards = format_cards(meld.cards).ljust(width)
        if problems:
            print(f"{cards}  illegal")
            for problem in problems:
                print(f"    - {problem.message}")
        else:
            print(f"{cards}  legal {meld.label}, {_points(meld)}")
    if args.initial:
        points = sum(meld.card_points for meld in melds)
        if initial:
            for problem in initial:
                print(f"First meld of deal {deal}: no - {problem.message}")
        elif deal in rules.concealed_first_meld_deals:
            print(f"First meld of deal {deal}: yes, a concealed canasta")
        else:
            print(f"First meld of deal {deal}: yes, {points} points (needs {minimum})")


def _points(meld: MeldCheck) -> str:
    bonus = meld.book_bonus + meld.lady_bonus
    if not bonus:
        return f"{meld.card_points} points"
    return f"{meld.card_points} + {bonus} bonus = {meld.points} points"

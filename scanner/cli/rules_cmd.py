"""``handfoot rules``: the presets, and every parameter of one preset or house-rules file."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from enum import Enum
from typing import Any

from engine import PRESETS, RuleSet, rules_to_toml
from engine.presets import OPTIONS
from scanner.cli.common import EXIT_OK, print_json
from scanner.rules_files import load_rules


def register(subcommands: argparse._SubParsersAction) -> None:
    parser = subcommands.add_parser(
        "rules",
        help="list the rule presets, or show every parameter of one",
        description="Without arguments: the presets, one line each. "
        "`rules show NAME|FILE`: every parameter, written as a house-rules file you can copy.",
    )
    parser.set_defaults(run=list_presets)
    actions = parser.add_subparsers(dest="action", metavar="show")
    show = actions.add_parser("show", help="every parameter of a preset or house-rules file")
    show.add_argument("rules", metavar="NAME|FILE", help="a preset such as pagat, or a .toml file")
    show.add_argument("--json", action="store_true", help="print the parameters as JSON")
    show.set_defaults(run=show_rules)


def list_presets(args: argparse.Namespace) -> int:
    width = max(len(name) for name in PRESETS)
    for name, rules in PRESETS.items():
        print(f"{name:<{width}}  {rules.description}")
        for option in OPTIONS.get(name, {}):
            print(f"{'':<{width}}  option {name}:{option}")
    print('\nHouse rules: a .toml file with base = "PRESET" and the parameters to change;')
    print("`handfoot rules show pagat` prints every parameter in that form.")
    return EXIT_OK


def show_rules(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    if args.json:
        print_json(rules_as_json(rules))
    else:
        # One comment line, whatever line breaks a house-rules description holds.
        print("# " + " ".join(f"{rules.name}: {rules.description}".split()))
        print(rules_to_toml(rules), end="")
    return EXIT_OK


def rules_as_json(rules: RuleSet) -> dict[str, Any]:
    def plain(value: Any) -> Any:
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value

    data = {name: getattr(rules, name) for name in rules.parameter_names()}
    data["card_values"] = dict(rules.card_values)
    data["go_out"] = [asdict(requirement) for requirement in rules.go_out]
    return {key: plain(value) for key, value in data.items()}

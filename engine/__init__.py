"""The rules of Hand and Foot: cards, rule sets, meld legality, deal and game scoring.

Pure and deterministic: the standard library only, no I/O. Everything else in handfoot
depends on this package; it depends on nothing else in handfoot.
"""

from engine.cards import Card, Colour, Deck, Rank, all_cards, format_cards, parse_cards
from engine.context import check_initial, check_side_melds
from engine.dealfile import deal_from_json, game_from_json
from engine.errors import DealFormatError, HandfootError, RulesError, UnknownCardError
from engine.game import GameResult, SideTotals, score_game
from engine.house_rules import rules_from_toml, rules_to_toml
from engine.melds import MeldCheck, MeldKind, check_meld
from engine.presets import PRESETS, get_preset
from engine.problems import Code, Problem
from engine.rules import BookRequirement, MeldsPerRank, PlayStyle, RedThrees, RuleSet
from engine.scoring import Breakdown, Deal, DealResult, Side, SideScore, score_deal

__all__ = [
    "PRESETS",
    "BookRequirement",
    "Breakdown",
    "Card",
    "Code",
    "Colour",
    "Deal",
    "DealFormatError",
    "DealResult",
    "Deck",
    "GameResult",
    "HandfootError",
    "MeldCheck",
    "MeldKind",
    "MeldsPerRank",
    "PlayStyle",
    "Problem",
    "Rank",
    "RedThrees",
    "RuleSet",
    "RulesError",
    "Side",
    "SideScore",
    "SideTotals",
    "UnknownCardError",
    "all_cards",
    "check_initial",
    "check_meld",
    "check_side_melds",
    "deal_from_json",
    "format_cards",
    "game_from_json",
    "get_preset",
    "parse_cards",
    "rules_from_toml",
    "rules_to_toml",
    "score_deal",
    "score_game",
]

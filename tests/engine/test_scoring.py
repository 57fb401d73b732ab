"""Deal and game scoring beyond the golden files: each rule of RULES.md §2 on its own."""

import pytest

from engine import (
    Code,
    Deal,
    DealFormatError,
    Side,
    deal_from_json,
    get_preset,
    parse_cards,
    score_deal,
    score_game,
)


def score(preset, deal=1, **fields):
    rules = get_preset(preset)
    cards = {
        key: parse_cards(value, rules.deck)
        for key, value in fields.items()
        if key in ("red_threes", "hand", "foot")
    }
    melds = tuple(parse_cards(text, rules.deck) for text in fields.get("melds", ()))
    flags = {key: fields[key] for key in ("went_out", "picked_22") if key in fields}
    side = Side("Us", melds=melds, **cards, **flags)
    return score_deal(Deal(rules, deal, (side,)))


@pytest.mark.parametrize(
    ("preset", "laid", "hand", "foot", "points"),
    [
        ("pagat", "3R 3R", "", "", 200),
        ("pagat", "3R", "3R", "3R", -100),
        ("classic", "", "3R", "", -100),
        ("simpson", "", "", "3R", -500),
        ("simpson", "3R", "3R", "", -1000),
        ("brouillette:low", "", "3R 3R", "", -1000),
    ],
)
def test_red_threes(preset, laid, hand, foot, points):
    result = score(preset, red_threes=laid, hand=hand, foot=foot)
    breakdown = result.sides[0].breakdown
    assert breakdown.red_threes == points
    assert breakdown.hand == 0 and breakdown.foot == 0  # a red three has no card value


def test_untaken_foot_and_leftovers_count_against():
    result = score("pagat", hand="5B JK 3B", foot="AR KB 2R 7B")
    breakdown = result.sides[0].breakdown
    assert (breakdown.hand, breakdown.foot) == (-60, -(20 + 10 + 20 + 5))
    assert result.sides[0].total == -115


def test_lady_penalty_and_villains():
    result = score("handnfoot", hand="LADY VILLAIN 7", foot="LADY JESTER")
    breakdown = result.sides[0].breakdown
    assert breakdown.lady_penalties == -1000
    assert (breakdown.hand, breakdown.foot) == (-10, -25)


def test_exact_22_only_where_the_rules_pay_it():
    assert score("simpson", picked_22=True).sides[0].breakdown.exact_22 == 100
    assert score("pagat", picked_22=True).sides[0].breakdown.exact_22 == 0


def test_going_out_needs_the_deals_books():
    books = ["KR KB KR KB KR KB KR", "QR QB QR QB QR QB 2R"]
    early = score("brouillette", 3, melds=books, went_out=True)
    assert early.possible and early.sides[0].breakdown.going_out == 100
    late = score("brouillette", 4, melds=books, went_out=True)
    assert [p.code for p in late.problems] == [Code.WENT_OUT_WITHOUT_BOOKS]
    assert "2 clean + 2 dirty" in late.problems[0].message


def test_problems_name_their_side_and_meld():
    result = score("pagat", melds=["KR KB KR", "8R 8B 2R JK"])
    assert [(p.code, p.side, p.meld) for p in result.problems] == [(Code.TOO_MANY_WILDS, "Us", 2)]


def test_several_sides_going_out_is_impossible():
    rules = get_preset("family")
    books = tuple(parse_cards(text) for text in ("KR KB KR KB KR KB KR", "QR QB QR QB QR QB 2R"))
    sides = tuple(Side(name, melds=books, went_out=True) for name in ("A", "B"))
    result = score_deal(Deal(rules, 1, sides))
    assert [p.code for p in result.problems] == [Code.SEVERAL_WENT_OUT]


def deal_json(number, totals):
    """A deal where each side just holds cards worth ``-total`` (negative totals)."""
    return {
        "rules": "pagat",
        "deal": number,
        "teams": [
            {"name": name, "melds": [], "red_threes": [], "hand": hand, "foot": []}
            for name, hand in totals.items()
        ],
    }


def test_a_game_runs_totals_and_names_the_winner():
    hands = [{"A": ["KR"], "B": ["AR"]}, {"A": ["5R"], "B": ["5B"]}] * 2
    deals = [deal_from_json(deal_json(n, h)) for n, h in enumerate(hands, start=1)]
    game = score_game(deals)
    totals = {side.name: side.running for side in game.sides}
    assert totals == {"A": (-10, -15, -25, -30), "B": (-20, -25, -45, -50)}
    assert game.finished and game.winner == "A" and not game.draw


def test_a_draw_and_an_unfinished_game():
    hands = [{"A": ["KR"], "B": ["QR"]}] * 4
    game = score_game([deal_from_json(deal_json(n, h)) for n, h in enumerate(hands, 1)])
    assert game.draw and game.winner is None and game.leaders == ("A", "B")
    partial = score_game([deal_from_json(deal_json(1, {"A": ["KR"], "B": ["AR"]}))])
    assert not partial.finished and partial.winner is None and partial.leaders == ("A",)


def test_game_sides_must_match():
    first = deal_from_json(deal_json(1, {"A": [], "B": []}))
    second = deal_from_json(deal_json(2, {"A": [], "C": []}))
    with pytest.raises(DealFormatError, match="deal 2 has the sides A, C"):
        score_game([first, second])

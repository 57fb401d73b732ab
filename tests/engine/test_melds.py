"""Meld legality (RULES.md §4): every problem at once, each with its code and a plain sentence."""

import pytest

from engine import (
    Code,
    Deck,
    MeldKind,
    UnknownCardError,
    check_initial,
    check_meld,
    check_side_melds,
    get_preset,
    parse_cards,
)


def check(text, preset="pagat"):
    rules = get_preset(preset)
    return check_meld(parse_cards(text, rules.deck), rules)


def codes(text, preset="pagat"):
    return [problem.code for problem in check(text, preset).problems]


@pytest.mark.parametrize(
    ("text", "label", "points"),
    [
        ("KR KB KR KB KR KB KR", "clean book", 570),
        ("QR QB QR QB QR 2B JK", "dirty book", 420),
        ("2R 2B 2R 2B JK JK JK", "wild book", 1730),
        ("9R 9B 2B", "dirty meld", 40),
        ("4R 4B 4R", "clean meld", 15),
    ],
)
def test_worked_examples_of_rules_section_7(text, label, points):
    meld = check(text)
    assert meld.legal and meld.label == label and meld.points == points


def test_the_illegal_worked_example_says_why():
    meld = check("8R 8B 2R JK")
    assert [p.code for p in meld.problems] == [Code.TOO_MANY_WILDS]
    assert meld.problems[0].message == (
        "a dirty meld of 4 cards may hold only 1 wild card (this one has 2)"
    )


@pytest.mark.parametrize(
    ("text", "preset", "expected"),
    [
        ("KR KB", "pagat", [Code.TOO_FEW_CARDS]),
        ("KR KB KR KB KR KB KR KB", "pagat", [Code.TOO_MANY_CARDS]),
        ("KR KB QR", "pagat", [Code.MIXED_RANKS]),
        ("3R 3R 3R", "pagat", [Code.THREE_IN_MELD]),
        ("3B 3B 3B", "pagat", [Code.THREE_IN_MELD]),
        ("2R 2B JK", "classic", [Code.WILD_MELD_NOT_ALLOWED]),
        ("2R 2B JK", "simpson", [Code.WILD_MELD_NOT_ALLOWED]),
        ("KR KB KR KB 2R 2B 2R", "classic", [Code.TOO_MANY_WILDS]),
        ("KR KB KR 2B 2R 2B 2R", "saskatchewan", [Code.TOO_MANY_WILDS]),
        ("3B 3B 3B 2R", "brouillette", [Code.WILD_IN_BLACK_THREES]),
        ("3R 3B 3B", "brouillette", [Code.THREE_IN_MELD]),
        ("3R KR 2B 2R", "pagat", [Code.THREE_IN_MELD, Code.TOO_MANY_WILDS]),
        (
            "KR QR 2B 2R JK JK JK JK",
            "pagat",
            [Code.MIXED_RANKS, Code.TOO_MANY_CARDS, Code.TOO_MANY_WILDS],
        ),
        ("KR KB 3B", "brouillette", [Code.THREE_IN_MELD]),
    ],
)
def test_every_problem_is_reported(text, preset, expected):
    assert sorted(codes(text, preset), key=lambda c: c.value) == sorted(
        expected, key=lambda c: c.value
    )


def test_wild_limits_by_preset():
    assert check("KR KB KR 2B 2R", "saskatchewan").legal  # 3 naturals > 2 wilds
    assert not check("KR KB KR 2B 2R", "pagat").legal  # needs twice as many naturals
    assert check("KR KB KR KB 2R 2B", "pagat").legal  # 4 naturals, 2 wilds
    assert check("KR KB KR KB 2R 2B 2R JK KR", "simpson").legal  # 5 > 4, piles grow
    assert not check("KR KB KR KB 2R 2B 2R JK", "simpson").legal  # 4 is not more than 4


def test_piles_grow_past_seven_with_one_bonus():
    meld = check("KR KB KR KB KR KB KR KB KR", "saskatchewan")
    assert meld.legal and meld.complete and meld.points == 9 * 10 + 500


def test_brouillette_black_three_book_counts_against():
    meld = check("3B 3B 3B 3B 3B 3B 3B", "brouillette")
    assert meld.legal and meld.kind is MeldKind.BLACK_THREES
    assert (meld.card_points, meld.book_bonus, meld.label) == (-35, 300, "black-three book")
    assert check("3B 3B 3B 3B 3B 3B 3B", "brouillette:low").points == -35 + 100
    assert check("3B 3B 3B", "brouillette").points == -15


def test_special_deck_melds_and_the_lady_cap():
    assert check("7 7 JESTER", "handnfoot").legal
    assert check("JESTER JOKER JESTER JOKER JESTER JOKER JOKER", "handnfoot").points == (
        3 * 25 + 4 * 50 + 2000
    )
    capped = check("LORD LORD LORD LORD LORD LORD LORD LADY", "handnfoot")
    assert capped.legal and capped.size == 7
    assert (capped.card_points, capped.book_bonus, capped.lady_bonus) == (140, 500, 100)
    assert codes("9 9 9 9 9 9 JOKER LADY", "handnfoot") == [Code.LADY_CAP]
    assert codes("9 9 9 LADY", "handnfoot") == [Code.LADY_CAP]
    assert codes("9 9 9 9 9 9 9 LADY LADY", "handnfoot") == [Code.LADY_CAP]
    assert codes("VILLAIN VILLAIN VILLAIN", "handnfoot") == [Code.NOT_MELDABLE]


def test_legality_ignores_card_order():
    forward, backward = check("QR QB 2B QR JK QR QB"), check("QB QR JK QR 2B QB QR")
    assert (forward.legal, forward.points, forward.label) == (
        backward.legal,
        backward.points,
        backward.label,
    )


def side(texts, preset="pagat"):
    rules = get_preset(preset)
    return [check_meld(parse_cards(text, rules.deck), rules) for text in texts], rules


def test_one_incomplete_meld_per_rank():
    melds, rules = side(["9R 9B 9R", "KR KB KR", "9B 9B 2R"])
    problems = check_side_melds(melds, rules)
    assert [(p.code, p.meld) for p in problems] == [(Code.SECOND_INCOMPLETE_MELD, 3)]
    assert "meld 1 must be completed" in problems[0].message
    melds, rules = side(["9R 9B 9R 9B 9R 9B 9R", "9B 9B 2R"])
    assert check_side_melds(melds, rules) == []


def test_simpson_allows_one_meld_per_rank_at_all():
    melds, rules = side(["9R 9B 9R 9B 9R 9B 9R", "9B 9B 2R"], "simpson")
    assert [p.code for p in check_side_melds(melds, rules)] == [Code.SECOND_MELD]


@pytest.mark.parametrize(
    ("deal", "texts", "met"),
    [
        (1, ["KR KB KR", "QR QB 2R"], True),  # 30 + 50 = 80 ≥ 50
        (1, ["6R 6B 6R 6B 6R 6B 6R"], False),  # seven sixes are only 35: the bonus never counts
        (2, ["AR AB AR", "JK KR KB"], True),  # 60 + 70 = 130 ≥ 90
        (3, ["AR AB AR", "JK KR KB"], True),  # 130 ≥ 120
        (4, ["AR AB AR", "JK KR KB"], False),  # 130 < 150
    ],
)
def test_initial_meld_minimum_over_melds_laid_together(deal, texts, met):
    melds, rules = side(texts)
    problems = check_initial(melds, rules, deal)
    assert (not problems) is met
    if not met:
        assert problems[0].code is Code.INITIAL_MINIMUM


def test_saskatchewan_deal_4_opens_with_a_concealed_canasta():
    melds, rules = side(["KR KB KR KB KR KB KR"], "saskatchewan")
    assert [p.code for p in check_initial(melds, rules, 4)] == [Code.CONCEALED_CANASTA]
    assert check_initial(melds, rules, 4, concealed=True) == []
    short, _ = side(["KR KB KR"], "saskatchewan")
    assert check_initial(short, rules, 4, concealed=True) != []


def test_special_deck_is_parsed_as_the_rules_deck():
    assert get_preset("handnfoot").deck is Deck.SPECIAL


def test_a_card_of_the_other_deck_is_refused_by_name():
    with pytest.raises(UnknownCardError, match=r"'KR' is not a card of the special"):
        check_meld(parse_cards("KR KB KR"), get_preset("handnfoot"))

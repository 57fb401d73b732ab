"""The presets carry the numbers of RULES.md §3; house rules override them and never guess."""

import dataclasses

import pytest

from engine import (
    PRESETS,
    BookRequirement,
    Deck,
    MeldsPerRank,
    RedThrees,
    RulesError,
    get_preset,
    rules_from_toml,
    rules_to_toml,
)
from scanner.rules_files import load_rules

# preset: hand, foot, meld_max, wild_ratio, wild_max, wild_melds, bonuses, red threes, exact 22
TABLE = {
    "pagat": (13, 13, 7, "2:1", None, True, (500, 300, 1500), RedThrees.BONUS, 0),
    "classic": (13, 13, 7, "2:1", 2, False, (500, 300, 0), RedThrees.BONUS, 0),
    "family": (11, 11, 7, "2:1", 2, True, (500, 300, 1500), RedThrees.BONUS, 0),
    "saskatchewan": (11, 13, None, "more", None, True, (500, 300, 1500), RedThrees.BONUS, 0),
    "simpson": (11, 11, None, "more", None, False, (300, 100, 0), RedThrees.PENALTY, 100),
    "brouillette": (11, 11, None, "more", None, False, (500, 300, 0), RedThrees.PENALTY, 100),
    "brouillette-partners": (
        11,
        11,
        None,
        "more",
        None,
        False,
        (500, 300, 0),
        RedThrees.PENALTY,
        100,
    ),
    "handnfoot": (11, 11, None, "more", None, True, (500, 300, 2000), RedThrees.NONE, 100),
}


def test_all_eight_presets_ship():
    assert set(PRESETS) == set(TABLE)


@pytest.mark.parametrize("name", TABLE)
def test_preset_numbers(name):
    hand, foot, meld_max, ratio, wild_max, wild_melds, bonuses, red, exact_22 = TABLE[name]
    rules = get_preset(name)
    assert (rules.hand_size, rules.foot_size, rules.meld_max) == (hand, foot, meld_max)
    assert (rules.wild_ratio, rules.wild_max, rules.wild_melds) == (ratio, wild_max, wild_melds)
    assert (rules.clean_bonus, rules.dirty_bonus, rules.wild_bonus) == bonuses
    assert rules.red_threes is red
    assert rules.exact_22_bonus == exact_22
    assert rules.initial_minimums == (50, 90, 120, 150)
    assert rules.deals == 4 and rules.going_out_bonus == 100 and rules.book_size == 7


@pytest.mark.parametrize(
    ("name", "deal", "requirement"),
    [
        ("pagat", 1, BookRequirement(clean=2, dirty=2, wild=1)),
        ("classic", 3, BookRequirement(clean=2, dirty=2)),
        ("family", 2, BookRequirement(clean=1, dirty=1)),
        ("saskatchewan", 4, BookRequirement(clean=1, dirty=1, wild=1)),
        ("simpson", 4, BookRequirement(clean=1, dirty=1)),
        ("brouillette", 3, BookRequirement(clean=1, dirty=1)),
        ("brouillette", 4, BookRequirement(clean=2, dirty=2)),
        ("brouillette-partners", 1, BookRequirement(clean=2, dirty=2)),
        ("brouillette-partners", 4, BookRequirement(clean=4, dirty=4)),
        ("handnfoot", 1, BookRequirement(any=3)),
    ],
)
def test_going_out_requirements(name, deal, requirement):
    assert get_preset(name).go_out_for(deal) == requirement


@pytest.mark.parametrize(
    ("name", "sizes"),
    [
        ("pagat", {3: 1, 5: 1, 6: 2, 7: 2}),
        ("classic", {7: 2}),
        ("simpson", {3: 1, 5: 2, 7: 3, 9: 4}),
    ],
)
def test_wild_limits(name, sizes):
    rules = get_preset(name)
    assert {size: rules.max_wilds(size) for size in sizes} == sizes


def test_preset_details():
    assert get_preset("simpson").melds_per_rank is MeldsPerRank.ONE
    assert get_preset("pagat").melds_per_rank is MeldsPerRank.ONE_INCOMPLETE
    assert get_preset("saskatchewan").concealed_first_meld_deals == (4,)
    brouillette = get_preset("brouillette")
    assert brouillette.black_three_melds and brouillette.black_three_bonus == 300
    low = get_preset("brouillette:low")
    assert (low.clean_bonus, low.dirty_bonus, low.black_three_bonus) == (300, 100, 100)
    assert get_preset("brouillette-partners:low").dirty_bonus == 100
    assert get_preset("Brouillette-Low") == low
    special = get_preset("handnfoot")
    assert special.deck is Deck.SPECIAL
    assert (special.lady_bonus, special.lady_penalty) == (100, 500)
    assert special.card_values["JESTER"] == 25 and special.card_values["6"] == 5
    assert special.card_values["7"] == 10 and special.card_values["LORD"] == 20


def test_rule_sets_are_immutable():
    rules = get_preset("pagat")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.clean_bonus = 1
    with pytest.raises(TypeError):
        rules.card_values["A"] = 1


@pytest.mark.parametrize("spec", ["nope", "pagat:low", "brouillette:high"])
def test_unknown_preset_or_option(spec):
    with pytest.raises(RulesError, match=r"pagat|option"):
        get_preset(spec)


def test_house_rules_override_any_parameter():
    rules = rules_from_toml(
        """
        base = "family"
        name = "Grandma's table"
        wild_melds = false
        wild_bonus = 0
        go_out = {clean = 2, dirty = 1}
        meld_max = "none"
        deals = 3
        [card_values]
        A = 25
        """,
        source="grandma.toml",
    )
    assert rules.name == "Grandma's table"
    assert rules.card_values["A"] == 25 and rules.card_values["K"] == 10
    assert rules.go_out == (BookRequirement(clean=2, dirty=1),) * 3
    assert rules.initial_minimums == (50, 90, 120)
    assert rules.meld_max is None and not rules.wild_melds
    assert rules.hand_size == 11


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('base = "pagat"\nwentout = 1', "wentout"),
        ('base = "pagat"\nclean_bonus = "lots"', "clean_bonus"),
        ('base = "pagat"\nclean_bonus = -5', "clean_bonus"),
        ('base = "pagat"\nmeld_max = 5', "meld_max"),
        ('base = "pagat"\nmeld_min = 1', "meld_min"),
        ('base = "pagat"\nwild_ratio = "2"', "wild_ratio"),
        ('base = "pagat"\nwild_melds = "yes"', "wild_melds"),
        ('base = "pagat"\ndeals = 5', "initial_minimums"),
        ('base = "pagat"\ninitial_minimums = [50, 90]', "initial_minimums"),
        ('base = "pagat"\ngo_out = {clean = 1, books = 2}', "go_out"),
        ('base = "classic"\ngo_out = {wild = 1}', "go_out"),
        ('base = "pagat"\nred_threes = "maybe"', "red_threes"),
        ('base = "pagat"\n[card_values]\nZZ = 3', "card_values"),
        ('base = "pagat"\n[card_values]\nA = "x"', "card_values.A"),
        ('base = "handnfoot"\nred_threes = "bonus"', "red_threes"),
        ('base = "pagat"\nconcealed_first_meld_deals = [5]', "concealed_first_meld_deals"),
        ('base = "nope"', "base"),
        ("clean_bonus = 1", "base"),
    ],
)
def test_house_rules_errors_name_the_key_and_the_file(text, key):
    with pytest.raises(RulesError) as caught:
        rules_from_toml(text, source="table.toml")
    assert str(caught.value).startswith(f"table.toml: {key}: ")
    assert caught.value.key == key and caught.value.source == "table.toml"


def test_broken_toml_names_the_file():
    with pytest.raises(RulesError, match=r"^table.toml: is not valid TOML"):
        rules_from_toml("base = ", source="table.toml")


@pytest.mark.parametrize("name", [*PRESETS, "brouillette:low"])
def test_shown_rules_read_back_identically(name):
    rules = get_preset(name)
    assert rules_from_toml(rules_to_toml(rules), source="copy.toml") == rules


def test_rules_files_are_found_by_path_and_next_to_the_deal(tmp_path):
    (tmp_path / "ours.toml").write_text('base = "pagat"\nclean_bonus = 700\n', encoding="utf-8")
    assert load_rules(str(tmp_path / "ours.toml")).clean_bonus == 700
    assert load_rules("ours.toml", relative_to=tmp_path).clean_bonus == 700
    assert load_rules("simpson").name == "simpson"
    with pytest.raises(RulesError, match=r"no preset or rules file named 'missing\.toml'"):
        load_rules("missing.toml", relative_to=tmp_path)

"""Property tests: invariants of the engine and the CLI that must hold for every preset and deck."""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stdout
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import (
    PRESETS,
    Card,
    Colour,
    Deal,
    Deck,
    HandfootError,
    MeldKind,
    Rank,
    RuleSet,
    Side,
    all_cards,
    check_meld,
    deal_from_json,
    format_cards,
    get_preset,
    parse_cards,
    rules_from_toml,
    rules_to_toml,
    score_deal,
)
from scanner.cli import main

RULE_SETS: tuple[RuleSet, ...] = (*PRESETS.values(), get_preset("brouillette:low"))
RULE_IDS = [rules.name for rules in RULE_SETS]
DECKS = (Deck.STANDARD, Deck.SPECIAL)

FAST = settings(max_examples=100, deadline=None)
CLI = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

SUIT_LETTERS = {Colour.RED: ("R", "H", "D"), Colour.BLACK: ("B", "C", "S")}
SHORT_FORMS = {
    Rank.LORD: ("LORD", "LO"),
    Rank.LADY: ("LADY", "LA"),
    Rank.VILLAIN: ("VILLAIN", "VI"),
    Rank.JESTER: ("JESTER", "JE"),
    Rank.SPECIAL_JOKER: ("JOKER", "JK"),
}


# -- strategies -----------------------------------------------------------------------------------

rule_sets = st.sampled_from(RULE_SETS)


def cards_of(deck: Deck) -> st.SearchStrategy[Card]:
    return st.sampled_from(all_cards(deck))


def naturals_of(rank: Rank) -> st.SearchStrategy[Card]:
    if rank.has_colour:
        return st.sampled_from([Card(rank, colour) for colour in Colour])
    return st.just(Card(rank))


def wilds_of(deck: Deck) -> st.SearchStrategy[Card]:
    return st.sampled_from([card for card in all_cards(deck) if card.is_wild])


def meldable_ranks(rules: RuleSet) -> list[Rank]:
    return [rank for rank in Rank if rank.deck is rules.deck and rank.is_meldable_natural]


@st.composite
def legal_melds(draw: st.DrawFn, rules: RuleSet) -> tuple[Card, ...]:
    """k naturals of one meldable rank + w wilds, w <= rules.max_wilds(k + w), size within the
    rules' bounds: legal by construction. Black-three melds (no wilds) where the rules allow."""
    upper = rules.meld_max if rules.meld_max is not None else rules.book_size + 4
    size = draw(st.integers(rules.meld_min, upper))
    if rules.black_three_melds and draw(st.booleans()):
        return (Card(Rank.THREE, Colour.BLACK),) * size
    rank = draw(st.sampled_from(meldable_ranks(rules)))
    wilds = draw(st.integers(0, rules.max_wilds(size)))
    naturals = draw(st.lists(naturals_of(rank), min_size=size - wilds, max_size=size - wilds))
    extra = draw(st.lists(wilds_of(rules.deck), min_size=wilds, max_size=wilds))
    return tuple(draw(st.permutations(naturals + extra)))


@st.composite
def any_melds(draw: st.DrawFn, rules: RuleSet) -> tuple[Card, ...]:
    """Mostly random cards, sometimes a legal meld with a few random cards mixed in, so that
    both legal and illegal melds of every kind turn up."""
    noise = st.lists(cards_of(rules.deck), max_size=9)
    if draw(st.booleans()):
        return tuple(draw(noise))
    base = draw(legal_melds(rules))
    mixed = base + tuple(draw(st.lists(cards_of(rules.deck), max_size=2)))
    return tuple(draw(st.permutations(mixed)))


@st.composite
def rules_and_meld(draw: st.DrawFn) -> tuple[RuleSet, tuple[Card, ...]]:
    rules = draw(rule_sets)
    return rules, draw(any_melds(rules))


def card_lists(deck: Deck, max_size: int = 6) -> st.SearchStrategy[tuple[Card, ...]]:
    return st.lists(cards_of(deck), max_size=max_size).map(tuple)


@st.composite
def sides(draw: st.DrawFn, rules: RuleSet, name: str) -> Side:
    return Side(
        name=name,
        melds=tuple(draw(st.lists(any_melds(rules), max_size=5))),
        red_threes=draw(card_lists(rules.deck, 3)),
        hand=draw(card_lists(rules.deck)),
        foot=draw(card_lists(rules.deck)),
        went_out=draw(st.booleans()),
        picked_22=draw(st.booleans()),
    )


side_names = st.lists(
    st.text(min_size=1, max_size=12).filter(lambda name: name.strip()),
    min_size=1,
    max_size=4,
    unique=True,
)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    rules = draw(rule_sets)
    names = draw(side_names)
    number = draw(st.integers(1, rules.deals))
    return Deal(rules, number, tuple(draw(sides(rules, name)) for name in names))


@st.composite
def spellings(draw: st.DrawFn, card: Card) -> str:
    """Any accepted way to write ``card``: suit letters for colours, short forms, any case."""
    if card.colour is not None:
        text = card.rank.token + draw(st.sampled_from(SUIT_LETTERS[card.colour]))
    else:
        text = draw(st.sampled_from(SHORT_FORMS.get(card.rank, (card.code,))))
    return "".join(draw(st.sampled_from([ch.upper(), ch.lower()])) for ch in text)


@st.composite
def token_lists(draw: st.DrawFn, deck: Deck, max_size: int = 6) -> list[str] | str:
    """A card list as the JSON format takes it: a list of tokens, or one string of them."""
    cards = draw(st.lists(cards_of(deck), max_size=max_size))
    tokens = [draw(spellings(card)) for card in cards]
    if draw(st.booleans()):
        return tokens
    return draw(st.sampled_from([" ", ", ", ","])).join(tokens)


@st.composite
def json_deals(draw: st.DrawFn) -> tuple[RuleSet, dict]:
    rules = draw(rule_sets)
    names = draw(side_names)
    teams = []
    for name in names:
        team: dict[str, object] = {
            "name": name,
            "melds": draw(st.lists(token_lists(rules.deck, 9), max_size=4)),
            "red_threes": draw(token_lists(rules.deck, 3)),
            "hand": draw(token_lists(rules.deck)),
            "foot": draw(token_lists(rules.deck)),
        }
        for flag in ("went_out", "picked_22"):
            if draw(st.booleans()):
                team[flag] = draw(st.booleans())
        teams.append(team)
    number = draw(st.integers(1, rules.deals))
    return rules, {"rules": rules.name, "deal": number, "teams": teams}


# -- meld legality --------------------------------------------------------------------------------


def _summary(cards: tuple[Card, ...], rules: RuleSet) -> tuple:
    check = check_meld(cards, rules)
    codes = frozenset(problem.code for problem in check.problems)
    return (
        check.legal,
        check.kind,
        check.size,
        check.wild_count,
        check.complete,
        check.card_points,
        check.book_bonus,
        check.lady_bonus,
        check.points,
        codes,
    )


@FAST
@given(st.data())
def test_check_meld_ignores_card_order(data: st.DataObject) -> None:
    rules, cards = data.draw(rules_and_meld())
    shuffled = tuple(data.draw(st.permutations(cards)))
    assert _summary(shuffled, rules) == _summary(cards, rules)


@FAST
@given(rules_and_meld())
def test_melded_points_are_the_card_values(case: tuple[RuleSet, tuple[Card, ...]]) -> None:
    rules, cards = case
    check = check_meld(cards, rules)
    total = sum(rules.value_of(card) for card in cards if card.rank is not Rank.LADY)
    expected = -total if check.kind is MeldKind.BLACK_THREES else total
    assert check.card_points == expected
    assert check.points == check.card_points + check.book_bonus + check.lady_bonus


@FAST
@given(st.data())
def test_constructed_melds_are_legal(data: st.DataObject) -> None:
    rules = data.draw(rule_sets)
    cards = data.draw(legal_melds(rules))
    check = check_meld(cards, rules)
    assert check.legal, [problem.message for problem in check.problems]
    assert check.complete == (len(cards) >= rules.book_size)


@FAST
@given(st.data())
def test_adding_a_natural_keeps_a_meld_legal(data: st.DataObject) -> None:
    rules = data.draw(rule_sets)
    cards = data.draw(legal_melds(rules))
    assume(rules.meld_max is None or len(cards) < rules.meld_max)
    before = check_meld(cards, rules)
    # Another card of the meld's own rank (and colour, for black threes).
    natural = data.draw(naturals_of(next(card.rank for card in cards if not card.is_wild)))
    if before.kind is MeldKind.BLACK_THREES:
        natural = Card(Rank.THREE, Colour.BLACK)
    after = check_meld((*cards, natural), rules)
    assert after.legal, [problem.message for problem in after.problems]
    assert after.kind is before.kind
    assert after.card_points == before.card_points + (
        -rules.value_of(natural)
        if before.kind is MeldKind.BLACK_THREES
        else rules.value_of(natural)
    )


# -- scoring never raises on valid cards ----------------------------------------------------------


def _assert_breakdowns_add_up(result) -> None:
    for side in result.sides:
        breakdown = side.breakdown
        lines = breakdown.to_dict()
        assert sum(lines[line] for line in breakdown.LINES) == side.total
        assert breakdown.melded_points == sum(meld.card_points for meld in breakdown.melds)
        assert breakdown.hand <= 0
        assert breakdown.foot <= 0


# Hypothesis: many examples.
@pytest.mark.slow
@FAST
@given(deals())
def test_score_deal_scores_any_valid_cards(deal: Deal) -> None:
    result = score_deal(deal)
    assert len(result.sides) == len(deal.sides)
    _assert_breakdowns_add_up(result)
    assert result.possible == (not result.problems)
    named = {side.name for side in deal.sides}
    assert all(problem.side is None or problem.side in named for problem in result.problems)


# Hypothesis: many examples.
@pytest.mark.slow
@FAST
@given(json_deals())
def test_deal_from_json_scores_any_valid_tokens(case: tuple[RuleSet, dict]) -> None:
    rules, data = case
    deal = deal_from_json(data)
    assert deal.rules == rules
    assert [side.name for side in deal.sides] == [team["name"] for team in data["teams"]]
    _assert_breakdowns_add_up(score_deal(deal))


# Hypothesis: many examples.
@pytest.mark.slow
@CLI
@given(case=json_deals())
def test_cli_score_reads_any_valid_deal(
    case: tuple[RuleSet, dict], capsys: pytest.CaptureFixture[str]
) -> None:
    _, data = case
    text = json.dumps(data)
    for extra in (["--json"], []):
        with mock.patch.object(sys, "stdin", io.StringIO(text)):
            code = main(["score", "-", *extra])
        out, err = capsys.readouterr()
        assert code in (0, 1), err
        assert err == ""
        if extra:
            result = json.loads(out)
            assert result["possible"] == (code == 0)
            for team in result["teams"]:
                lines = team["breakdown"]
                total = sum(v for k, v in lines.items() if k != "melds")
                assert total == team["total"]
        else:
            assert ("This deal cannot have happened" in out) == (code == 1)


# -- notation -------------------------------------------------------------------------------------


@pytest.mark.parametrize("deck", DECKS, ids=[deck.value for deck in DECKS])
def test_every_card_round_trips(deck: Deck) -> None:
    cards = all_cards(deck)
    for card in cards:
        assert Card.from_code(card.code, deck) == card
        assert Card.from_code(card.code.lower(), deck) == card
        assert Card.from_code(f" {card.code} ", deck) == card
        assert repr(card) == f"Card({card.code!r})"
    assert parse_cards(format_cards(cards), deck) == cards
    assert parse_cards(format_cards(cards).lower(), deck) == cards
    assert parse_cards(",".join(card.code for card in cards), deck) == cards


def test_suit_letters_mean_their_colour() -> None:
    for card in all_cards(Deck.STANDARD):
        if card.colour is None:
            continue
        for letter in SUIT_LETTERS[card.colour]:
            for text in (card.rank.token + letter, (card.rank.token + letter).lower()):
                parsed = Card.from_code(text)
                assert parsed == card
                assert parsed.code == card.code  # output is always R/B


@FAST
@given(st.data())
def test_any_spelling_round_trips(data: st.DataObject) -> None:
    deck = data.draw(st.sampled_from(DECKS))
    cards = tuple(data.draw(st.lists(cards_of(deck), max_size=12)))
    written = [data.draw(spellings(card)) for card in cards]
    separator = data.draw(st.sampled_from([" ", ",", ", ", "\t", "\n  "]))
    parsed = parse_cards(separator.join(written), deck)
    assert parsed == cards
    assert parse_cards(format_cards(parsed), deck) == cards


# -- house rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_rules_to_toml_round_trips(rules: RuleSet) -> None:
    assert rules_from_toml(rules_to_toml(rules), source="x") == rules


printable_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=20)


@FAST
@given(
    rule_sets,
    printable_text,
    printable_text,
    st.integers(0, 100_000),
    st.integers(0, 100_000),
    st.integers(0, 100_000),
)
def test_changed_rules_round_trip(
    rules: RuleSet, name: str, description: str, clean: int, dirty: int, going_out: int
) -> None:
    changed = replace(
        rules,
        name=name,
        description=description,
        clean_bonus=clean,
        dirty_bonus=dirty,
        going_out_bonus=going_out,
    )
    assert rules_from_toml(rules_to_toml(changed), source="x") == changed


@pytest.mark.parametrize("text", ["two\nlines", "a\x7fb", "bell\x07"])
def test_rules_with_control_characters_round_trip(text: str) -> None:
    changed = replace(get_preset("pagat"), name=text, description=text)
    assert rules_from_toml(rules_to_toml(changed), source="x") == changed


# -- the CLI never raises -------------------------------------------------------------------------


@CLI
@given(text=st.text().filter(lambda text: not text.startswith("-")), rules=rule_sets)
def test_check_meld_answers_any_text(
    text: str, rules: RuleSet, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check-meld", "--rules", rules.name, text])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    assert "Traceback" not in out + err
    if code == 2:
        assert err.startswith("handfoot: ")
        assert err.count("\n") == 1
    else:
        assert err == ""


@CLI
@given(text=st.text().map(lambda text: "-" + text))
def test_check_meld_with_a_dash_token_never_crashes(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # argparse reads a token that starts with "-" as an option: a usage error, or --help.
    code = main(["check-meld", text])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    assert "Traceback" not in out + err


def test_check_meld_with_an_option_like_token_returns_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["check-meld", "-x"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("handfoot: ") and err.count("\n") == 1


@FAST
@given(rules_and_meld())
def test_check_meld_cli_agrees_with_the_engine(case: tuple[RuleSet, tuple[Card, ...]]) -> None:
    rules, cards = case
    assume(cards)
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        code = main(["check-meld", "--json", "--rules", rules.name, format_cards(cards)])
    check = check_meld(cards, rules)
    result = json.loads(buffer.getvalue())
    assert code == (0 if check.legal else 1)
    assert result["melds"][0]["points"] == check.points
    assert {p["code"] for p in result["problems"]} == {p.code.value for p in check.problems}


def test_engine_errors_share_one_base() -> None:
    # The CLI turns exactly these into exit 2; every parse failure must be one of them.
    with pytest.raises(HandfootError):
        parse_cards("ZZ")
    with pytest.raises(HandfootError):
        deal_from_json({"deal": 1})

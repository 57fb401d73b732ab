"""The table service's pure parts: readings and their corrections, the end-of-deal deal, the
panel's state, and the page's helpers (chart, plain error sentences, Host checks)."""

import json

import pytest

from engine import Card, Deal, Side, check_meld, get_preset, parse_cards, score_deal
from scanner.cli.score_cmd import deal_as_json
from scanner.service import BadInput, Button, NoSuchThing, PanelState, PanelUnavailable
from scanner.service.checks import check_sides, parse_rules, typed_cards
from scanner.service.deal import SideEnd, deal_json, result_json, score
from scanner.service.panel import check_panel_kind
from scanner.service.reading import check_cards, correct, new_reading, score_reading
from scanner.web.chart import totals_chart
from scanner.web.errors import validation_sentence
from scanner.web.security import HostAllowList, host_of

PAGAT = get_preset("pagat")


def table(*melds: str, red_threes: str = "") -> dict:
    return new_reading("table", melds=[m.split() for m in melds], red_threes=red_threes.split())


def test_scoring_a_reading_is_the_engines():
    reading = table("KR KB KR KB KR KB KR", "9R 9B 2B", red_threes="3R")
    view = score_reading(reading, PAGAT, 1)
    first = check_meld(parse_cards("KR KB KR KB KR KB KR"), PAGAT)
    assert view["melds"][0]["points"] == first.points
    assert view["melds"][0]["kind"] == first.label
    side = Side("t", melds=(parse_cards("KR KB KR KB KR KB KR"), parse_cards("9R 9B 2B")),
                red_threes=parse_cards("3R"))  # fmt: skip
    lines = score_deal(Deal(PAGAT, 1, (side,))).sides[0].breakdown
    assert view["totals"]["total"] == lines.melded_points + lines.book_bonuses + lines.red_threes
    assert view["legal"] and view["check_count"] == 0


def test_illegal_meld_carries_the_engines_reason():
    view = score_reading(table("8R 8B 2R JK"), PAGAT, 1)
    assert not view["legal"]
    assert view["melds"][0]["problems"] == [
        "a dirty meld of 4 cards may hold only 1 wild card (this one has 2)"
    ]


def test_change_move_add_delete_and_accept():
    reading = table("KR KB 5R", "9R 9B 2B")
    reading["melds"][0][2]["check"] = True
    assert [card["code"] for card in check_cards(reading)] == ["5R"]
    changed = correct(reading, "change", {"card": 3, "code": "kh"}, PAGAT.deck)
    assert changed["melds"][0][2] | {"code": "KR"} == changed["melds"][0][2]
    assert changed["melds"][0][2]["read_as"] == "5R" and not check_cards(changed)
    assert reading["melds"][0][2]["code"] == "5R"  # the reading given is left as it was
    moved = correct(changed, "move", {"card": 3, "to": "meld:2"}, PAGAT.deck)
    assert [c["code"] for c in moved["melds"][1]] == ["9R", "9B", "2B", "KR"]
    added = correct(moved, "add", {"code": "9D", "to": "meld:2"}, PAGAT.deck)
    assert added["melds"][1][-1] == {"id": 7, "code": "9R", "check": False, "added": True}
    deleted = correct(added, "delete", {"card": 3}, PAGAT.deck)
    assert len(deleted["melds"][1]) == 4
    unsure = table("KR KB KR")
    unsure["melds"][0][0]["check"] = True
    assert not check_cards(correct(unsure, "accept", {"card": 1}, PAGAT.deck))


def test_moving_the_last_card_of_a_meld_drops_the_empty_meld():
    reading = correct(table("KR KB KR", "3R"), "move", {"card": 4, "to": "red_threes"}, PAGAT.deck)
    assert len(reading["melds"]) == 1 and [c["code"] for c in reading["red_threes"]] == ["3R"]


def test_remove_meld():
    reading = correct(table("KR KB KR", "9R 9B 9R"), "remove_meld", {"meld": 1}, PAGAT.deck)
    assert [[c["code"] for c in meld] for meld in reading["melds"]] == [["9R", "9B", "9R"]]
    with pytest.raises(NoSuchThing):
        correct(reading, "remove_meld", {"meld": 5}, PAGAT.deck)


def test_unknown_card_code_names_the_code():
    with pytest.raises(BadInput, match="'ZZ' is not a card of the standard deck"):
        correct(table("KR KB KR"), "change", {"card": 1, "code": "ZZ"}, PAGAT.deck)
    with pytest.raises(BadInput, match="'XQ'"):
        typed_cards("hand", "5B XQ", PAGAT.deck)


def test_bad_corrections_are_refused_in_words():
    reading = table("KR KB KR")
    with pytest.raises(NoSuchThing, match="There is no card 99"):
        correct(reading, "delete", {"card": 99}, PAGAT.deck)
    with pytest.raises(BadInput, match="place 'meld:9'"):
        correct(reading, "move", {"card": 1, "to": "meld:9"}, PAGAT.deck)
    with pytest.raises(BadInput, match="action 'burn'"):
        correct(reading, "burn", {}, PAGAT.deck)


def test_leftovers_cost_what_the_engine_says():
    view = score_reading(new_reading("leftovers", leftovers=["5B", "JK", "3R"]), PAGAT, 1)
    hand = parse_cards("5B JK 3R")
    lines = score_deal(Deal(PAGAT, 1, (Side("x", hand=hand),))).sides[0].breakdown
    assert view["totals"]["total"] == lines.hand + lines.red_threes
    assert view["totals"]["cards"] == -55


def test_the_deal_is_the_engines_deal_file_and_result():
    us = SideEnd(
        "Us",
        table=table("KR KB KR KB KR KB KR", red_threes="3R"),
        leftovers=new_reading("leftovers", leftovers=["5B"]),
        typed_hand=("JK",),
        went_out=False,
    )
    them = SideEnd("Them", typed_foot=("4R",))
    deal = deal_json("pagat", 2, [us, them])
    assert deal["teams"][0]["hand"] == ["5B", "JK"] and deal["teams"][1]["foot"] == ["4R"]
    from engine import deal_from_json

    expected = deal_as_json(score_deal(deal_from_json(deal)))
    assert score(deal, PAGAT) == expected
    assert result_json(score_deal(deal_from_json(deal))) == expected
    json.dumps(deal)  # what the store keeps is plain JSON


def test_new_game_checks():
    assert check_sides([{"name": " Us ", "players": "Ann, Bob"}]) == [
        {"name": "Us", "players": ["Ann", "Bob"]}
    ]
    with pytest.raises(BadInput, match="name of side 2"):
        check_sides([{"name": "Us"}, {"name": ""}])
    with pytest.raises(BadInput, match="two sides have that name"):
        check_sides([{"name": "Us"}, {"name": "us"}])
    with pytest.raises(BadInput, match="at least one side"):
        check_sides([])
    rules, name, text = parse_rules(None, 'base = "family"\nname = "Ours"\nclean_bonus = 600')
    assert (rules.clean_bonus, name) == (600, "Ours") and text
    with pytest.raises(BadInput, match="clean_bonuss"):
        parse_rules(None, 'base = "pagat"\nclean_bonuss = 1')
    with pytest.raises(BadInput, match="unknown rules 'nope'"):
        parse_rules("nope", None)


def test_panel_state():
    panel = PanelState()
    assert panel.leds["table"] and not panel.leds["green"] and panel.display == "----"
    assert panel.next_mode().mode == "leftovers" and panel.next_mode().next_mode().mode == "meld"
    assert panel.next_side(["Us", "Them"]).side == "Us"
    assert panel.next_side(["Us", "Them"]).next_side(["Us", "Them"]).side == "Them"
    assert panel.scanning().display == "...." and panel.scanning().light == "amber"
    shown = panel.showing(570, legal=True, check=False)
    assert (shown.display, shown.light, shown.busy) == ("570", "green", False)
    assert panel.showing(10, legal=False, check=False).light == "red"
    assert panel.failed(3).display == "Err 3"
    assert Button("scan") is Button.SCAN
    with pytest.raises(ValueError):
        PanelState(mode="fast")


def test_gpio_panel_is_refused_plainly():
    assert check_panel_kind("simulated") == "simulated"
    with pytest.raises(PanelUnavailable, match="--panel simulated"):
        check_panel_kind("gpio")


def test_chart_and_sentences():
    svg = totals_chart([("Us", [655, 1200]), ("Them <b>", [-40, 300])], deals=4)
    assert "Us 1,200" in svg and "Them &lt;b&gt; 300" in svg and "deal 4" in svg
    assert validation_sentence(
        [{"type": "literal_error", "loc": ("body", "mode"), "input": "fast",
          "msg": "Input should be 'meld', 'table' or 'leftovers'"}]
    ) == "The field 'mode' must be 'meld', 'table' or 'leftovers' (it was 'fast')."  # fmt: skip
    assert validation_sentence([{"type": "json_invalid", "loc": ("body", 3)}]) == (
        "The request is not valid JSON."
    )


def test_host_allow_list():
    allow = HostAllowList(["table.example"])
    assert allow.allows("localhost:8080") and allow.allows("127.0.0.1:8080")
    assert allow.allows("[::1]:8080") and allow.allows("192.168.1.20:8080")
    assert allow.allows("TABLE.example")
    assert not allow.allows("evil.example") and not allow.allows(None)
    assert host_of("Pi.Local:8080") == "pi.local"


def test_card_codes_round_trip():
    assert Card.from_code("KR").code == "KR"


@pytest.mark.parametrize(
    "name",
    [
        "scanner.service.reading",
        "scanner.service.deal",
        "scanner.service.panel",
        "scanner.service.errors",
        "scanner.web.chart",
        "scanner.web.errors",
        "scanner.web.security",
    ],
)
def test_docstring_examples(name):
    import doctest
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(name))
    assert tried and not failed


def test_a_scans_reading_keeps_strays_apart_from_what_counts_and_what_is_checked():
    from scanner.service import reading as readings
    from scanner.table.modes import Mode, interpret
    from tests.table.test_modes import table_cards
    from tests.table.test_voting import card

    result = interpret(Mode.TABLE, [*table_cards(), card("6B", 900, 700, confidence=0.3)], PAGAT)
    reading = readings.reading_from_result(result)
    assert [item["code"] for item in reading["strays"]] == ["6B"]
    assert reading["unplaced"] == [] and readings.check_cards(reading) == []
    ids = [item["id"] for _, _, item in readings.all_cards(reading)] + [reading["strays"][0]["id"]]
    assert len(set(ids)) == len(ids)

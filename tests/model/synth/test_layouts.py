"""The tidy layouts: one side's table and a hand's leftovers, as a camera on a stand sees them.
A side's table is a legal one, every card can be read, nothing leaves the frame; training
scenes are the frames they always were."""

import json
from collections import Counter
from pathlib import Path

import cv2
import jsonschema
import numpy as np
import pytest

from engine import Deck, check_meld, check_side_melds, get_preset, parse_cards
from model.evaluate.truth import is_seen
from model.synth.layout import wild_limit
from model.synth.scene import render_scene

HERE = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((HERE.parent / "model" / "synth" / "scene.schema.json").read_text())
FIXTURES = HERE / "fixtures" / "vision"
SIZES = [(960, 720), None]  # a fixed frame, and the camera's own choice of frame
RULES = {"standard": get_preset("pagat"), "special": get_preset("handnfoot")}
WILDS = {"2R", "2B", "JK", "JESTER", "JOKER"}


def labels_of(layout: str, count: int, seed: int = 31) -> list[dict]:
    """Labels only: the frames are not needed, so the photographic effects are left out."""
    return [
        render_scene(
            seed,
            index,
            split=("train", "test")[index % 2],
            deck=("standard", "special", "both")[index % 3],
            size=SIZES[index % 2],
            layout=layout,
            photographic=False,
        ).labels
        for index in range(count)
    ]


@pytest.fixture(scope="module")
def sides() -> list[dict]:
    return labels_of("side", 20)


@pytest.fixture(scope="module")
def leftovers() -> list[dict]:
    return labels_of("leftovers", 12)


def meld_codes(labels: dict) -> list[list[str]]:
    cards = labels["cards"]
    return [
        [cards[n]["code"] for n in meld["cards"]]
        for meld in labels["melds"]
        if meld["kind"] in ("fanned meld", "book")
    ]


def assert_whole_and_readable(labels: dict) -> None:
    width, height = labels["width"], labels["height"]
    for card in labels["cards"]:
        corners = np.array(card["corners"])
        assert (corners >= 0).all() and (corners <= [width, height]).all(), card["code"]
        top_left = card["indices"][0]
        assert top_left["corner"] == "top-left" and top_left["visible"], card["code"]


def test_every_card_of_a_side_is_in_the_frame_and_readable(sides):
    for labels in sides:
        jsonschema.validate(labels, SCHEMA)
        assert labels["layout"] == "side"
        assert_whole_and_readable(labels)
        # Nothing lies over the cards: props and piles are drawn beside them, underneath.
        assert all(card["visible_fraction"] > 0.1 for card in labels["cards"])


def test_a_side_holds_three_to_eight_melds_of_distinct_ranks_within_the_wild_limits(sides):
    decks = Counter()
    for labels in sides:
        decks[labels["deck"]] += 1
        melds = meld_codes(labels)
        assert 3 <= len(melds) <= 8
        naturals = [[c for c in codes if c not in WILDS and c != "LADY"] for codes in melds]
        ranks = [codes[0].rstrip("RB") for codes in naturals]
        assert len(set(ranks)) == len(ranks), melds
        for codes, natural in zip(melds, naturals, strict=True):
            body = [c for c in codes if c != "LADY"]
            wilds = len(body) - len(natural)
            assert len({c.rstrip("RB") for c in natural}) == 1, codes
            assert wilds <= wild_limit(len(body)) and wilds < len(natural), codes
            assert 3 <= len(body) <= 9 and not {"3R", "3B"} & set(natural), codes
            if "LADY" in codes:
                assert codes[-1] == "LADY" and wilds == 0 and len(body) >= 7, codes
        threes = [m for m in labels["melds"] if m["kind"] == "red three"]
        assert len(threes) <= (3 if labels["deck"] == "standard" else 0)
        for meld in threes:
            (card,) = meld["cards"]
            assert labels["cards"][card]["code"] == "3R"
        kinds = {m["kind"] for m in labels["melds"]}
        assert kinds <= {"fanned meld", "book", "red three"}
    assert set(decks) == {"standard", "special"}
    assert any(len(codes) >= 7 for labels in sides for codes in meld_codes(labels))
    assert any(len(codes) < 7 for labels in sides for codes in meld_codes(labels))


def test_a_side_is_a_legal_table_for_the_engine(sides):
    for labels in sides:
        rules = RULES[labels["deck"]]
        deck = Deck.SPECIAL if labels["deck"] == "special" else Deck.STANDARD
        checks = [check_meld(parse_cards(" ".join(c), deck), rules) for c in meld_codes(labels)]
        for check in checks:
            assert check.legal, (labels["index"], check.cards, check.problems)
        assert check_side_melds(checks, rules) == []
    books = [
        check
        for labels in sides
        if labels["deck"] == "standard"
        for check in (
            check_meld(parse_cards(" ".join(c)), RULES["standard"]) for c in meld_codes(labels)
        )
        if check.complete
    ]
    assert {check.kind.name for check in books} == {"CLEAN", "DIRTY"}


def test_leftovers_are_three_to_fifteen_readable_cards_of_their_own(leftovers):
    codes = Counter()
    for labels in leftovers:
        jsonschema.validate(labels, SCHEMA)
        assert labels["layout"] == "leftovers"
        assert 3 <= len(labels["cards"]) <= 15
        assert_whole_and_readable(labels)
        assert all(len(meld["cards"]) == 1 for meld in labels["melds"])
        assert len(labels["melds"]) == len(labels["cards"])
        codes.update(card["code"] for card in labels["cards"])
    # Any card may be left in a hand: threes, wild cards, the special deck's Villains.
    assert {"3B", "JK", "VILLAIN"} <= set(codes), codes


def test_a_deck_laid_out_to_teach_it_is_the_whole_deck_in_one_design_every_index_readable():
    """What ``handfoot deck teach`` asks players to lay out (``scanner/decks/layouts.py``)."""
    from scanner.decks.layouts import layout_codes

    for labels in labels_of("teach", 6):
        jsonschema.validate(labels, SCHEMA)
        assert labels["layout"] == "teach"
        assert_whole_and_readable(labels)
        assert len({card["style"] for card in labels["cards"]}) == 1
        assert sorted(card["code"] for card in labels["cards"]) == sorted(
            layout_codes(labels["deck"])
        )


def test_a_layout_is_reproducible_and_its_shots_are_the_same_table():
    first = render_scene(4, 2, size=(640, 480), layout="side")
    again = render_scene(4, 2, size=(640, 480), layout="side")
    assert first.jpeg == again.jpeg and first.labels == again.labels
    later = render_scene(4, 2, size=(640, 480), layout="side", shot=1)
    assert later.labels == first.labels and later.jpeg != first.jpeg
    other = render_scene(4, 2, size=(640, 480), layout="leftovers")
    assert other.labels["cards"] != first.labels["cards"]
    with pytest.raises(ValueError, match="layout must be one of"):
        render_scene(4, 2, layout="poker")


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("scene-777-*.jpg")))
def test_training_scenes_are_the_committed_frames(name):
    """The vision fixtures were rendered before the tidy layouts existed.

    The same cards at the same places; the pixels may move by a level or two where a newer
    OpenCV rounds a resize or a blur differently, so the frames are compared decoded.
    """
    index = int(name.removesuffix(".jpg").rsplit("-", 1)[1])
    expected = json.loads((FIXTURES / "expected.json").read_text())[name]
    committed = cv2.imread(str(FIXTURES / name)).astype(np.int16)
    for scene in (
        render_scene(777, index, split="test", size=(960, 720)),
        render_scene(777, index, split="test", size=(960, 720), layout="training"),
    ):
        assert sorted(c["code"] for c in scene.labels["cards"] if is_seen(c)) == expected
        assert "layout" not in scene.labels
        frame = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
        diff = np.abs(frame.astype(np.int16) - committed)
        # One card moved by a pixel changes thousands of pixels by tens of levels.
        assert np.mean(diff) < 0.05 and np.count_nonzero(diff > 16) < 50


def test_synth_writes_a_run_of_side_tables(cli, tmp_path):
    args = ["synth", "--count", "2", "--seed", "6", "--size", "480x360", "--quiet"]
    assert cli(*args, "--layout", "side", "--out", tmp_path / "side").code == 0
    run = json.loads((tmp_path / "side" / "run.json").read_text())
    assert run["layout"] == "side"
    labels = json.loads((tmp_path / "side" / "scene_000001.json").read_text())
    jsonschema.validate(labels, SCHEMA)
    assert labels["layout"] == "side" and labels["image"] == "scene_000001.jpg"
    expected = render_scene(6, 1, size=(480, 360), layout="side")
    assert (tmp_path / "side" / "scene_000001.jpg").read_bytes() == expected.jpeg
    # Training runs keep the run.json they always had, so an old run can be resumed.
    assert cli(*args, "--out", tmp_path / "training").code == 0
    assert "layout" not in json.loads((tmp_path / "training" / "run.json").read_text())
    assert cli(*args, "--layout", "side", "--out", tmp_path / "training", "--resume").code != 0
    assert cli(*args, "--layout", "poker", "--out", tmp_path / "x").code != 0


def test_the_layout_modules_examples_run():
    import doctest

    from model.synth import layout

    failed, tried = doctest.testmod(layout)
    assert tried and not failed

"""Whole scenes: deterministic, schema-valid, labels that agree with the pixels, every card
class in a modest run, and held-out designs kept out of training scenes."""

import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from model.synth.faces import ALL_STYLES, CARD_NAMES, VARIED_STYLES, render_face
from model.synth.scene import render_scene
from model.synth.surfaces import SURFACES

# Renders many scenes.
pytestmark = pytest.mark.slow

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[3] / "model" / "synth" / "scene.schema.json").read_text()
)
SMALL = (640, 480)


def codes_of(deck: str) -> set[str]:
    styles = [s for s in ALL_STYLES if s.deck == deck]
    return {render_face(styles[0], name).code for name in CARD_NAMES[deck]}


def test_the_same_seed_gives_the_same_bytes():
    """Whatever was rendered before (warm caches, other scenes), a seed gives the same file."""
    first = [render_scene(11, index, size=SMALL) for index in range(8)]
    again = [render_scene(11, index, size=SMALL) for index in reversed(range(8))][::-1]
    assert [s.jpeg for s in first] == [s.jpeg for s in again]
    assert [s.labels for s in first] == [s.labels for s in again]
    assert len({s.jpeg for s in first}) == 8


@pytest.mark.parametrize(
    ("split", "deck"), [("train", "both"), ("test", "standard"), ("test", "special")]
)
def test_labels_follow_the_schema(split, deck):
    for index in range(6):
        scene = render_scene(3, index, split=split, deck=deck)
        jsonschema.validate(scene.labels, SCHEMA)
        assert scene.image.shape == (scene.labels["height"], scene.labels["width"], 3)


@pytest.mark.parametrize("index", range(8))
def test_index_labels_cover_exactly_the_printed_indices(index):
    """Drawing every card without its indices changes the frame only inside the labelled
    index quads, and every index labelled readable really shows ink there."""
    import cv2

    kwargs = {"split": "train" if index % 2 else "test", "size": SMALL, "photographic": False}
    with_glyphs = render_scene(21, index, **kwargs)
    without = render_scene(21, index, glyphs=False, **kwargs)
    changed = np.abs(with_glyphs.image.astype(int) - without.image.astype(int)).max(axis=2) > 8
    inside = np.zeros(changed.shape, np.uint8)
    for card in with_glyphs.labels["cards"]:
        for mark in card["indices"]:
            quad = np.round(np.array(mark["quad"]) * 16).astype(np.int32)
            cv2.fillConvexPoly(inside, quad, 1, shift=4)
            if mark["visible"]:
                ink = np.zeros(changed.shape, np.uint8)
                cv2.fillConvexPoly(ink, quad, 1, shift=4)
                assert np.count_nonzero(changed & (ink == 1)) > 0, card["code"]
    grown = cv2.dilate(inside, np.ones((5, 5), np.uint8))
    assert np.count_nonzero(changed & (grown == 0)) == 0


def test_every_card_class_appears_in_a_modest_run():
    for deck, count in (("standard", 30), ("special", 20)):
        seen = set()
        for index in range(count):
            labels = render_scene(5, index, deck=deck, size=SMALL).labels
            seen |= {
                card["code"]
                for card in labels["cards"]
                if any(i["visible"] for i in card["indices"])
            }
        assert seen == codes_of(deck), sorted(codes_of(deck) - seen)


def test_held_out_designs_never_appear_in_training_scenes():
    held_out = {s.name for s in ALL_STYLES if s.split == "test"}
    held_out_surfaces = {s.name for s in SURFACES if s.split == "test"}
    assert held_out and held_out_surfaces
    used_in_test = set()
    for index in range(30):
        train = render_scene(9, index, size=SMALL).labels
        assert not set(train["styles"]) & held_out
        assert {card["style"] for card in train["cards"]}.isdisjoint(held_out)
        assert train["surface"] not in held_out_surfaces
        test = render_scene(9, index, split="test", size=SMALL).labels
        used_in_test |= set(test["styles"]) | {test["surface"]}
    assert used_in_test & held_out and used_in_test & held_out_surfaces


def test_training_scenes_draw_varied_designs_as_often_as_named_ones_and_test_scenes_never():
    varied = {s.name for s in VARIED_STYLES}
    drawn = 0
    for index in range(30):
        train = render_scene(9, index, size=SMALL).labels
        chosen = set(train["styles"])
        assert chosen <= varied or not chosen & varied  # a scene's decks are of one kind
        assert {card["style"] for card in train["cards"]} <= chosen
        drawn += chosen <= varied
        assert not set(render_scene(9, index, split="test", size=SMALL).labels["styles"]) & varied
    assert 8 <= drawn <= 22


def test_scenes_hold_what_a_table_holds():
    kinds, objects, sizes = set(), set(), set()
    for index in range(30):
        labels = render_scene(2, index).labels
        kinds |= {meld["kind"] for meld in labels["melds"]}
        objects |= {obj["kind"] for obj in labels["objects"]}
        sizes.add((labels["width"], labels["height"]))
        for meld in labels["melds"]:
            assert all(labels["cards"][i]["group"] == meld["id"] for i in meld["cards"])
    assert {"fanned meld", "book", "single card", "red three"} <= kinds
    assert "card-back" in objects and len(objects) >= 4
    assert len(sizes) >= 3

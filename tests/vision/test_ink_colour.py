"""Red told by the ink against its own paper (``scanner/vision/ink_colour.py``, rule
``ink_colour``): a rendered table's indices measured as drawn, under a red cast and in grey; the
table printed as a black deck prints it, gold for red and white for black, read through the
shipped models with the rule and without, in colour and in grey."""

from functools import cache

import cv2
import numpy as np
import pytest

from model.recogniser.real_marks import Place
from model.synth.scene import render_scene
from scanner.vision.contract import STANDARD_CLASSES, Contract
from scanner.vision.ink_colour import RED_ON_DARK, held_to_red, ink_ratio, red_ink
from scanner.vision.networks import default_model_dir
from scanner.vision.preprocess import upright_crops
from scanner.vision.recogniser import Recogniser

# A hand's leftovers spread out, every index readable (deck standard, held-out designs): 2R, 7R,
# three 3B and two 7B. Printed as a black deck, the network alone reads its gold 2 black.
SEED, INDEX = 5150, 8
RED_CAST = ((1.0, 0.55, 0.45), 1.0)  # channel gains, share of the colour kept
GOLD, WHITE, BLACK = (205.0, 160.0, 70.0), (225.0, 225.0, 215.0), (28.0, 28.0, 30.0)
NEUTRAL = np.array([255.0, 255.0, 255.0])


@cache
def _scene():
    return render_scene(
        SEED, INDEX, split="test", layout="leftovers", deck="standard", size=(960, 720)
    )


@cache
def _contract() -> Contract:
    return Contract.load(default_model_dir())


def _places(colour: str) -> list[Place]:
    """The whole indices of the scene's standard cards of ``colour`` ("R" or "B")."""
    places = []
    for card in _scene().labels["cards"]:
        if card["code"] not in STANDARD_CLASSES or card["code"][-1] != colour:
            continue
        for index in card["indices"]:
            if index["visible"]:
                quad = np.array(index["quad"], float)
                height, width = np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[1] - quad[0])
                places.append(Place(*quad.mean(axis=0), index["orientation"], height, width))
    return places


def lit(frame: np.ndarray, gains: tuple[float, float, float], keep: float) -> np.ndarray:
    """``frame`` with ``keep`` of its colour and each channel scaled by ``gains``."""
    pixels = frame.astype(np.float32)
    grey = pixels.mean(axis=2, keepdims=True)
    pixels = (grey + keep * (pixels - grey)) * np.array(gains, np.float32)
    return np.clip(pixels, 0, 255).astype(np.uint8)


def _crops(frame: np.ndarray, colour: str) -> np.ndarray:
    return upright_crops(frame, _places(colour), _contract())


def test_the_scene_shows_cards_of_both_colours():
    assert len(_places("R")) >= 3 and len(_places("B")) >= 3


def test_red_ink_is_told_from_black_as_drawn():
    frame = _scene().image
    red, _ = ink_ratio(_crops(frame, "R"), NEUTRAL)
    black, _ = ink_ratio(_crops(frame, "B"), NEUTRAL)
    assert red.max() < black.min()  # every red index redder than every black one
    assert black.min() > 0.85
    assert red_ink(_crops(frame, "R"), NEUTRAL).any()
    assert not red_ink(_crops(frame, "B"), NEUTRAL).any()


def test_black_ink_under_a_red_cast_stays_black_its_paper_as_red_as_it():
    frame = lit(_scene().image, *RED_CAST)
    black, on_light = ink_ratio(_crops(frame, "B"), NEUTRAL)
    red, _ = ink_ratio(_crops(frame, "R"), NEUTRAL)
    assert on_light.all()
    assert black.min() > 0.85  # balanced by its own paper: neutral
    assert red.max() < black.min()
    assert not red_ink(_crops(frame, "B"), NEUTRAL).any()


def test_a_grey_photo_is_not_measured():
    frame = lit(_scene().image, (1.0, 1.0, 1.0), 0.0)
    crops = np.concatenate([_crops(frame, "R"), _crops(frame, "B")])
    ratio, _ = ink_ratio(crops, NEUTRAL)
    assert np.isnan(ratio).all()
    assert not red_ink(crops, NEUTRAL).any()


def _printed(light: np.ndarray, ink_red: np.ndarray) -> np.ndarray:
    """Pixels as a black deck prints them: near-black paper, the ink (by how dark it lies on
    its light paper, ``light``) gold where it was red (``ink_red``), white where not."""
    paper = np.nanpercentile(light, 90)
    ink = np.clip(1.0 - light / paper, 0.0, 1.0) ** 0.7
    colour = np.where(ink_red[..., None], np.array(GOLD), np.array(WHITE))
    printed = np.array(BLACK) + ink[..., None] * (colour - np.array(BLACK)) * 1.6
    return np.clip(printed, 0, 255)


def black_deck(scene) -> np.ndarray:
    """The scene's frame with its cards printed as a black deck prints them."""
    frame = scene.image.astype(np.float32)
    on_card = np.zeros(frame.shape[:2], np.uint8)
    for card in scene.labels["cards"]:
        cv2.fillConvexPoly(on_card, np.array(card["corners"], np.int32), 1)
    light = frame.mean(axis=2)
    red = frame[..., 0] - frame[..., 1:].max(axis=2) > 40
    printed = _printed(np.where(on_card > 0, light, np.nan), red)
    return np.where(on_card[..., None] > 0, printed, frame).astype(np.uint8)


def test_a_black_decks_gold_print_is_red_and_its_white_print_not_under_a_warm_light():
    warm = (1.0, 0.85, 0.7)  # the frame's brightest surfaces, and the print, this warm
    frame = lit(black_deck(_scene()), warm, 1.0)
    white = 250.0 * np.array(warm)
    ratio, on_light = ink_ratio(_crops(frame, "R"), white)
    assert not on_light.any()
    assert (ratio < RED_ON_DARK).all()
    assert not red_ink(_crops(frame, "B"), white).any()
    # balanced by a neutral white instead, the warm light's white print reads gold
    assert red_ink(_crops(frame, "B"), NEUTRAL).any()


def test_a_row_held_to_red_keeps_its_rank_and_how_sure():
    classes = ("QR", "QB", "7R", "7B", "7", "LORD", "none")
    row = np.array([0.2, 0.5, 0.05, 0.05, 0.1, 0.05, 0.05])
    held = held_to_red(row, classes, "none")
    assert held.tolist() == pytest.approx([0.5, 0.0, 0.05, 0.0, 0.1, 0.05, 0.3])
    assert held.sum() == pytest.approx(1.0)
    special = np.array([0.0, 0.1, 0.0, 0.0, 0.1, 0.75, 0.05])
    assert held_to_red(special, classes, "none").argmax() == classes.index("LORD")


@pytest.fixture(scope="module")
def recogniser() -> Recogniser:
    return Recogniser.load()


def _codes(recogniser: Recogniser, frame: np.ndarray) -> list[str]:
    return sorted(card.code for card in recogniser.read(frame).cards)


@pytest.mark.xfail(
    strict=True,
    reason="version 35's networks lose this rendered case (model/experiments/from-scratch-35.md); "
    "a retrain that reads it again should drop this mark",
)
def test_a_black_decks_gold_card_read_black_by_the_network_is_read_red(recogniser):
    frame = black_deck(_scene())
    without = _codes(recogniser.without("ink_colour"), frame)
    with_rule = _codes(recogniser, frame)
    assert "2B" in without and "2R" not in without  # the gold 2 read black
    assert "2R" in with_rule and "2B" not in with_rule
    black = [code for code in without if code.endswith("B") and code != "2B"]
    assert black and black == [code for code in with_rule if code.endswith("B")]


def test_a_grey_frame_is_read_as_without_the_rule(recogniser):
    for frame in (black_deck(_scene()), _scene().image):
        grey = lit(frame, (1.0, 1.0, 1.0), 0.0)
        assert _codes(recogniser, grey) == _codes(recogniser.without("ink_colour"), grey)


def test_black_cards_under_a_red_cast_are_not_turned_red(recogniser):
    truth = ["2R", "3B", "3B", "3B", "7B", "7B", "7R"]
    assert _codes(recogniser, lit(_scene().image, (1.0, 0.8, 0.7), 1.0)) == truth
    # Under a strong cast the network reads black cards red by itself; the rule, which counts
    # only ink redder than its paper, adds no red card to those (their ink measures neutral:
    # test_black_ink_under_a_red_cast_stays_black_its_paper_as_red_as_it)
    frame = lit(_scene().image, *RED_CAST)
    assert _codes(recogniser, frame) == _codes(recogniser.without("ink_colour"), frame)

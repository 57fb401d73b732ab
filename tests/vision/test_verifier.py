"""The verifier's second look: context crops, the rule that drops only lone doubted readings,
and the recogniser with a verifier in its model folder (a stand-in built with ``onnx``)."""

import json
import math
import shutil
from dataclasses import replace

import numpy as np
import pytest

from scanner.vision import contract as spec
from scanner.vision.cards import IndexReading, merge_cards
from scanner.vision.contract import Contract
from scanner.vision.decode import IndexCandidate
from scanner.vision.errors import RecogniserError
from scanner.vision.faint import FAINT_HEAT
from scanner.vision.networks import CLASSIFIER_FILE, LOCATOR_FILE, VERIFIER_FILE
from scanner.vision.preprocess import context_crops, context_matrix
from scanner.vision.recogniser import Recogniser
from scanner.vision.verifier import settle_lone_doubts
from tests.vision.test_cli import (
    green_for,
    save_stand_in,
    stand_in_folders,
)
from tests.vision.test_pure import index_of, quadrant_frame

C = Contract.from_spec()


# -- context crops -------------------------------------------------------------------------------

# the stand-in frames mark indices with red cells and encode codes in green: no ink, so the
# colour rule (ink_colour.py), which would read the red cells as red print, stays off
STAND_IN = {"turns": 1, "ink_colour": False}


def index_in_crop() -> float:
    """Where the index centre lies in a context crop (both axes, crop px): the crop's middle is
    VERIFY_SHIFT extents along and down from it, and the crop is VERIFY_SCALE extents wide."""
    return C.verify_side / 2 - C.verify_shift * C.verify_side / C.verify_scale


@pytest.mark.parametrize("angle", [0.0, 33.0, 90.0, 180.0, 301.5])
def test_a_context_crop_holds_the_index_up_and_left_and_the_card_beyond(angle):
    place = IndexCandidate(120.4, 96.2, 1.0, angle, 24.0, 14.0, 0, 0, 1, 1)
    matrix = context_matrix(place, C)
    at = index_in_crop()
    assert matrix @ [at, at, 1] == pytest.approx((place.x, place.y))
    # the quadrants of a pattern turned with the index come out upright around that point
    frame = quadrant_frame((place.x, place.y), angle, place.index_h, place.index_w, (220, 260))
    (crop,) = context_crops(frame, [place], C)
    step = 2  # crop px: the index is 24 px tall in a crop 3 × 24 = 72 px wide, 48 px
    assert tuple(crop[int(at - step), int(at - step)]) == (255, 0, 0)
    assert tuple(crop[int(at - step), int(at + step)]) == (0, 255, 0)
    assert tuple(crop[int(at + step), int(at - step)]) == (0, 0, 255)
    assert tuple(crop[int(at + step), int(at + step)]) == (255, 255, 255)
    assert tuple(crop[-2, -2]) == (0, 0, 0)  # the card's body: here bare table


def test_context_crops_are_the_verifier_s_training_crops():
    verify = pytest.importorskip("model.recogniser.verify", reason="needs the training code")
    assert verify.MINE_PEAK <= FAINT_HEAT  # it learns from the faint marks read too
    frame = np.random.default_rng(3).integers(0, 256, (90, 120, 3), np.uint8)
    places = [IndexCandidate(60.0, 40.0, 1.0, 77.0, 10.0, 6.0, 0, 0, 1, 1)]
    assert context_crops(frame, places, C).shape == (1, spec.VERIFY_SIDE, spec.VERIFY_SIDE, 3)
    assert context_crops(frame, [], C).shape == (0, spec.VERIFY_SIDE, spec.VERIFY_SIDE, 3)


# -- the lone-doubt rule ---------------------------------------------------------------------------


def fan(count: int, start=(200.0, 300.0), step=22.0) -> list[IndexReading]:
    """Readings of the top-left indices of a fan of ``count`` cards, run to the right."""
    return [
        IndexReading(index_of((start[0] + k * step, start[1]), 0.0, "top-left"), "9B", 0.95)
        for k in range(count)
    ]


def test_a_doubted_reading_apart_from_every_card_is_dropped():
    meld = fan(3)
    phantom = IndexReading(index_of((600.0, 120.0), 40.0, "top-left"), "9B", 0.97)
    kept = settle_lone_doubts([*meld, phantom], [0.9, 0.9, 0.9, 0.02], 0.1, "none")
    assert kept == meld


def test_a_lone_doubted_reading_the_classifier_is_sure_of_stays_marked_doubted():
    meld = fan(3)
    sure = IndexReading(index_of((600.0, 120.0), 40.0, "top-left"), "KR", 0.92)
    unsure = IndexReading(index_of((80.0, 500.0), 0.0, "top-left"), "9B", 0.6)
    kept = settle_lone_doubts([*meld, sure, unsure], [0.9, 0.9, 0.9, 0.02, 0.02], 0.1, "none", 0.8)
    assert kept[:3] == meld and not any(reading.doubted for reading in meld)
    assert kept[3:] == [replace(sure, doubted=True)]  # the unsure phantom is still dropped
    cards = merge_cards(kept, not_an_index="none", min_confidence=0.5)
    lone = next(card for card in cards if card.code == "KR")
    assert lone.doubted and lone.check and lone.confidence == pytest.approx(0.92)
    assert not any(card.check for card in cards if card.code == "9B")


def test_a_doubted_card_at_either_end_of_a_fan_stays():
    meld = fan(4)
    for end in (0, 3):
        on_card = [0.95] * 4
        on_card[end] = 0.01
        assert settle_lone_doubts(meld, on_card, 0.1, "none") == meld


def test_trusted_lone_cards_not_an_index_and_a_whole_doubted_fan_alone():
    lone = IndexReading(index_of((600.0, 120.0), 40.0, "top-left"), "KR", 0.97)
    none = IndexReading(index_of((50.0, 60.0), 0.0, "top-left"), "none", 0.99)
    assert settle_lone_doubts([lone, none], [0.5, 0.0], 0.1, "none") == [lone, none]
    # doubted readings do not vouch for each other: each must touch a trusted one
    assert settle_lone_doubts(fan(3), [0.05, 0.05, 0.05], 0.1, "none") == []
    with pytest.raises(ValueError, match="2 verdicts for 3 readings"):
        settle_lone_doubts(fan(3), [0.5, 0.5], 0.1, "none")


# -- the recogniser with a verifier ------------------------------------------------------------


def stand_in_verifier(path, gain: float = 8.0, shape=("N", 1)) -> None:
    """logit = gain × the crop's mean blue (normalised): a mark among blue is on a card."""
    pytest.importorskip("onnx", reason="the stand-in models are built with onnx")
    from onnx import helper

    constants = {
        "s2": np.array([2], np.int64),
        "s3": np.array([3], np.int64),
        "s1": np.array([1], np.int64),
        "shape": np.array([-1, 1] if shape == ("N", 1) else [-1], np.int64),
        "gain": np.array(gain, np.float32),
    }
    nodes = [
        helper.make_node("GlobalAveragePool", ["context"], ["pooled"]),
        helper.make_node("Slice", ["pooled", "s2", "s3", "s1"], ["blue"]),
        helper.make_node("Reshape", ["blue", "shape"], ["b"]),
        helper.make_node("Mul", ["b", "gain"], ["logit"]),
    ]
    side = spec.VERIFY_SIDE
    inputs, outputs = [("context", ["N", 3, side, side])], [("logit", list(shape))]
    save_stand_in(path, "stand-in verifier", nodes, constants, inputs, outputs)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    return stand_in_folders(tmp_path_factory, VERIFIER_FILE, stand_in_verifier)


def table(second_card_at=(202, 102)) -> np.ndarray:
    """Blue everywhere (paper, for the stand-in verifier) but around the 7B marked at
    (102, 202): a red cell on a field the stand-in classifier reads as 7B, amid no blue. The
    KR's red cell lies at ``second_card_at``."""
    frame = np.zeros((320, 400, 3), np.uint8)
    frame[..., 1] = green_for("KR")
    frame[..., 2] = 255
    frame[185:225, 85:125, 2] = 0
    frame[180:230, 80:130, 1] = green_for("7B")
    x, y = second_card_at
    frame[200:204, 100:104, 0] = 255
    frame[y - 2 : y + 2, x - 2 : x + 2, 0] = 255
    return frame


def codes(recogniser: Recogniser, frame: np.ndarray) -> set[str]:
    return {card.code for card in recogniser.read(frame).cards}


def test_the_recogniser_drops_a_lone_reading_its_verifier_doubts(folders, tmp_path):
    plain, verified = folders
    for name in (LOCATOR_FILE, CLASSIFIER_FILE, VERIFIER_FILE):
        shutil.copy(verified / name, tmp_path / name)
    never_ask = {"VERIFY_ASK_FROM": 1.01, "CROP_FITS_WIDTH": spec.CROP_FITS_WIDTH}
    (tmp_path / "recogniser.json").write_text(json.dumps(never_ask))
    with_verifier = Recogniser.load(tmp_path, **STAND_IN)
    without = Recogniser.load(plain, **STAND_IN)
    assert codes(without, table()) == {"KR", "7B"}
    reading = with_verifier.read(table())
    assert {card.code for card in reading.cards} == {"KR"}
    assert reading.timing_ms["verify"] >= 0
    # beside another card (its index on the 7B's outline) the doubted 7B stays
    assert codes(with_verifier, table(second_card_at=(140, 250))) == {"KR", "7B"}


def test_a_lone_card_the_classifier_is_sure_of_asks_for_a_check_instead(folders):
    plain, verified = folders
    sure = {card.code: card for card in Recogniser.load(plain, **STAND_IN).read(table()).cards}
    assert sure["7B"].confidence >= spec.VERIFY_ASK_FROM and not sure["7B"].check
    cards = {card.code: card for card in Recogniser.load(verified, **STAND_IN).read(table()).cards}
    assert cards["7B"].doubted and cards["7B"].check
    assert cards["7B"].confidence == pytest.approx(sure["7B"].confidence)
    assert not cards["KR"].doubted and not cards["KR"].check


def test_a_verifier_of_the_wrong_shape_is_refused(folders, tmp_path):
    plain, _ = folders
    for name in (LOCATOR_FILE, CLASSIFIER_FILE):
        shutil.copy(plain / name, tmp_path / name)
    stand_in_verifier(tmp_path / VERIFIER_FILE, shape=("N",))
    with pytest.raises(RecogniserError, match="verifier gives"):
        Recogniser.load(tmp_path, **STAND_IN)
    (tmp_path / VERIFIER_FILE).write_bytes(b"not a model")
    with pytest.raises(RecogniserError, match="not a model onnxruntime can load"):
        Recogniser.load(tmp_path, **STAND_IN)


def test_the_index_sits_where_the_crop_says():
    assert index_in_crop() == pytest.approx(24 - 0.4 * 48 / 3)
    assert math.isclose(C.verify_below, spec.VERIFY_BELOW)

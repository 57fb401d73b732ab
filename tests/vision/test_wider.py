"""The wider classifier's second reading of a small index: its crops, how its probabilities
pick the card, and the recogniser with one in its model folder (a stand-in built with
``onnx``)."""

import json
import math
import shutil

import numpy as np
import pytest

from scanner.vision import contract as spec
from scanner.vision.contract import MANIFEST, Contract
from scanner.vision.decode import IndexCandidate
from scanner.vision.errors import RecogniserError
from scanner.vision.networks import CLASSIFIER_FILE, LOCATOR_FILE, WIDER_FILE
from scanner.vision.preprocess import crop_matrix, normalise, wider_crops
from scanner.vision.recogniser import Recogniser
from scanner.vision.wider import small_cards, with_wider
from tests.vision.test_cli import green_for, marked_frame, save_stand_in, stand_in_folders
from tests.vision.test_pure import quadrant_frame

C = Contract.from_spec()
CLASSES = list(C.classes)
NONE = CLASSES.index(C.not_an_index)

# the stand-in frames mark indices with red cells and encode codes in green: no ink, so the
# colour rule (ink_colour.py), which would read the red cells as red print, stays off
STAND_IN = {"turns": 1, "ink_colour": False}


def place(height=12.0, width=8.0, angle=0.0) -> IndexCandidate:
    return IndexCandidate(70.3, 55.8, 1.0, angle, height, width, 0, 0, 1, 1)


def row(**chances: float) -> np.ndarray:
    """Probabilities over the classes: the ``chances`` given (class → p, "none" for "not an
    index"), the rest spread evenly."""
    p = np.zeros(len(CLASSES))
    for code, chance in chances.items():
        p[CLASSES.index(code)] = chance
    rest = [k for k in range(len(CLASSES)) if CLASSES[k] not in chances]
    p[rest] = (1 - sum(chances.values())) / len(rest)
    return p


# -- the crops -----------------------------------------------------------------------------------


@pytest.mark.parametrize("angle", [0.0, 37.0, 90.0, 200.0])
def test_a_wider_crop_holds_what_lies_down_the_index_turned_upright(angle):
    mark = place(angle=angle)
    extent = spec.crop_extent(mark.index_h, mark.index_w)
    theta = math.radians(angle)
    along = np.array([math.cos(theta), math.sin(theta)])
    down = np.array([-math.sin(theta), math.cos(theta)])
    middle = np.array([mark.x, mark.y]) + (C.wider_along * along + C.wider_down * down) * extent
    matrix = crop_matrix(mark, C, scale=C.wider_scale, shift=(C.wider_along, C.wider_down))
    assert matrix @ [C.crop_w / 2, C.crop_h / 2, 1] == pytest.approx(middle)
    # a pattern where the crop's middle falls, as large as the crop's middle half
    frame = quadrant_frame(middle, angle, C.crop_h / 2, C.crop_w / 2, size=(160, 200))
    (crop,) = wider_crops(frame, [mark], C) / 255.0
    # 48 crop px are WIDER_SCALE × 12 = 48 frame px: the pattern's quarters lie ±6 px around
    # the middle
    mid_y, mid_x = C.crop_h // 2, C.crop_w // 2
    assert crop[mid_y - 6, mid_x - 4] == pytest.approx((1, 0, 0), abs=0.05)
    assert crop[mid_y - 6, mid_x + 4] == pytest.approx((0, 1, 0), abs=0.05)
    assert crop[mid_y + 6, mid_x - 4] == pytest.approx((0, 0, 1), abs=0.05)
    assert crop[mid_y + 6, mid_x + 4] == pytest.approx((1, 1, 1), abs=0.05)
    assert crop[1, 1] == pytest.approx((0, 0, 0), abs=0.05)  # beyond the pattern


@pytest.mark.parametrize("angle", [0.0, 71.5, 200.0])
def test_wider_crops_are_the_crops_it_was_trained_on(angle):
    targets = pytest.importorskip("model.recogniser.targets", reason="needs the training code")
    frame = np.random.default_rng(1).integers(0, 256, (160, 200, 3), np.uint8)
    mark = place(26.0, 15.0, angle)
    centre = np.array([mark.x, mark.y])
    trained = targets.upright_crop(frame, centre, angle, 26.0, 15.0, **targets.WIDER)
    assert np.array_equal(wider_crops(frame, [mark], C)[0], trained)
    # the classifier's own crop is not moved
    plain = targets.upright_crop(frame, centre, angle, 26.0, 15.0)
    assert not np.array_equal(plain, trained)


# -- picking the card ----------------------------------------------------------------------------


def test_the_card_most_likely_to_both_is_kept_with_the_classifier_s_numbers():
    # the classifier reads a small 6 as an 8 (0.55) or a 6 (0.3); the card beside it is
    # plainly a 6's
    first = row(**{"8B": 0.55, "6B": 0.3, "none": 0.05})
    wider = row(**{"6B": 0.7, "8B": 0.1, "none": 0.1})
    (picked,) = with_wider(first[None], wider[None], NONE)
    assert CLASSES[int(picked.argmax())] == "6B"
    assert picked[CLASSES.index("6B")] == 0.55 and picked[CLASSES.index("8B")] == 0.3
    assert picked[NONE] == first[NONE]
    assert sorted(picked) == sorted(first)  # the same numbers, on another card


def test_the_wider_classifier_alone_does_not_overrule_a_sure_reading():
    # sure of a 6: a wider reading of 8 at 0.8 is not enough (0.95 × 0.1 > 0.02 × 0.8)
    first = row(**{"6R": 0.95, "8R": 0.02})
    wider = row(**{"8R": 0.8, "6R": 0.1})
    np.testing.assert_array_equal(with_wider(first[None], wider[None], NONE), first[None])


def test_not_an_index_is_never_picked_and_keeps_its_probability():
    first = row(**{"none": 0.6, "QR": 0.3, "KR": 0.05})
    wider = row(**{"none": 0.9, "KR": 0.09, "QR": 0.001})
    (picked,) = with_wider(first[None], wider[None], NONE)
    assert picked[NONE] == 0.6
    assert picked[CLASSES.index("KR")] == 0.3 and picked[CLASSES.index("QR")] == 0.05


def test_rows_of_other_shapes_are_refused():
    with pytest.raises(ValueError, match="wider ones"):
        with_wider(np.zeros((2, len(CLASSES))), np.zeros((1, len(CLASSES))), NONE)


def test_only_small_indices_read_as_cards_are_read_again():
    probabilities = np.stack([row(KR=0.9), row(none=0.9), row(KR=0.9), row(KR=0.9)])
    places = [place(12.0, 8.0), place(12.0, 8.0), place(20.0, 14.0), place(30.0, 9.0)]
    # the short side counts: a wide word 9 px tall is small, a tall 14 px wide one is not
    assert small_cards(probabilities, places, NONE, 14.0) == [0, 3]
    assert small_cards(probabilities, places, NONE, 8.0) == []
    assert small_cards(probabilities[:0], [], NONE, 14.0) == []


# -- the recogniser with a wider classifier ------------------------------------------------------

WIDER_READS = "QB"  # what the stand-in wider classifier reads in every crop


def stand_in_wider(path, classes: int = len(spec.CLASSES)) -> None:
    """Logits of WIDER_READS 8 above every other class's for every crop (``classes`` of
    them)."""
    pytest.importorskip("onnx", reason="the stand-in models are built with onnx")
    from onnx import helper

    logits = np.zeros(classes, np.float32)
    logits[spec.CLASSES.index(WIDER_READS) % classes] = 8.0
    constants = {
        "zero": np.array(0, np.float32),
        "answer": logits[None],
        "shape": np.array([-1, 1], np.int64),
    }

    nodes = [
        helper.make_node("ReduceMean", ["crops"], ["pooled"], axes=[1, 2, 3], keepdims=0),
        helper.make_node("Reshape", ["pooled", "shape"], ["column"]),
        helper.make_node("Mul", ["column", "zero"], ["zeros"]),
        helper.make_node("Add", ["zeros", "answer"], ["logits"]),
    ]
    inputs = [("crops", ["N", 3, spec.CROP_H, spec.CROP_W])]
    outputs = [("logits", ["N", classes])]
    save_stand_in(path, "stand-in wider classifier", nodes, constants, inputs, outputs, opset=13)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    return stand_in_folders(tmp_path_factory, WIDER_FILE, stand_in_wider)


def cells_frame() -> np.ndarray:
    """Twelve red cells the stand-in locator marks as index centres, 120 px apart, on a
    field the stand-in classifier reads as KR, the last on a patch it reads as 7B."""
    frame = np.zeros((400, 560, 3), np.uint8)
    frame[..., 1] = green_for("KR")
    frame[300:350, 430:480, 1] = green_for("7B")
    for y in (100, 200, 320):
        for x in (100, 220, 340, 452):
            frame[y : y + 4, x : x + 4, 0] = 255
    frame[..., 2] = np.random.default_rng(0).integers(0, 256, frame.shape[:2])
    return frame


def codes(folder, **options) -> list[str]:
    reading = Recogniser.load(folder, **{**STAND_IN, **options}).read(cells_frame(), melds=False)
    return sorted(set(card.code for card in reading.cards))


def with_below(folder, tmp_path, below: float):
    """A copy of ``folder`` whose manifest reads WIDER_BELOW as ``below``."""
    copy = tmp_path / f"below-{below}"
    shutil.copytree(folder, copy)
    (copy / MANIFEST).write_text(json.dumps({"WIDER_BELOW": below, "CROP_FITS_WIDTH": 1}))
    return copy


def test_a_small_index_is_read_as_the_card_most_likely_to_both_classifiers(folders, tmp_path):
    # The stand-in classifier reads the frame's two cells as KR and 7B, on either side of QB
    # (its levels: QB, KR next to each other, 7B far off). The stand-in wider classifier reads
    # QB everywhere: the KR cell becomes QB, likely to both; the 7B cell stays 7B, since the
    # classifier gives QB there next to nothing.
    plain, wider = folders
    assert codes(plain) == ["7B", "KR"]
    recogniser = Recogniser.load(wider, **STAND_IN)
    assert WIDER_FILE in recogniser.files
    assert codes(wider) == ["7B", "QB"]
    # told not to read it, a folder holding one reads as one without
    assert WIDER_FILE not in Recogniser.load(wider, **STAND_IN, wider=False).files
    assert codes(wider, wider=False) == ["7B", "KR"]


def test_the_size_a_small_index_is_read_below_is_that_of_the_frame_as_it_came(folders, tmp_path):
    # The stand-in locator marks indices 8 px wide in the frame it reads: the frame is read
    # scaled up 1.25 times (scale.py), so they came 6.4 px wide.
    _, wider = folders
    reading = Recogniser.load(wider, **STAND_IN).read(cells_frame(), melds=False)
    assert reading.scale == pytest.approx(1.25) and len(reading.cards) == 12
    below_7, below_6 = with_below(wider, tmp_path, 7.0), with_below(wider, tmp_path, 6.0)
    assert codes(below_7) == ["7B", "QB"]
    assert codes(below_6) == ["7B", "KR"]
    # read as it comes, the 8 px are 8 px
    assert codes(below_7, rescale=False) == ["7B", "KR"]


def test_a_wider_classifier_of_the_wrong_shape_is_refused(folders, tmp_path):
    plain, _ = folders
    for name in (LOCATOR_FILE, CLASSIFIER_FILE):
        shutil.copy(plain / name, tmp_path / name)
    stand_in_wider(tmp_path / WIDER_FILE, classes=len(spec.CLASSES) - 1)
    with pytest.raises(RecogniserError, match="wider classifier gives"):
        Recogniser.load(tmp_path, **STAND_IN)


def test_the_shipped_contract_reads_small_indices_with_the_card_beside_them():
    assert C.wider_scale > C.crop_scale and C.wider_down > 0 and C.wider_below > 0
    assert normalise(wider_crops(marked_frame(), [], C), C).shape == (0, 3, C.crop_h, C.crop_w)

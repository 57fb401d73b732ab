"""A frame larger than the locator learnt, read at the size its indices measure in a preview
(``scanner/vision/large_frame.py``): the factors, and rendered twelve-megapixel tables and a
real photo scaled up read through the shipped models."""

import math
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from model.evaluate.scenes import score_scene
from model.synth.scene import render_scene
from scanner.vision.large_frame import (
    ALIKE,
    AS_IT_CAME,
    LARGE_INDEX,
    LARGEST_LEARNT,
    PREVIEW_PIXELS,
    SMALLEST_SIDE,
    TARGET_INDEX,
    TARGET_SMALL,
    factor_from_preview,
    preview_factor,
    smaller_factor,
)
from scanner.vision.recogniser import Recogniser
from scanner.vision.second_look import second_look_factors
from tests.vision.test_second_look import _inside, _labelled_cards

CAMERA_MODULE_3 = (4608, 2592)
HQ_CAMERA = (4056, 3040)
SECOND_LOOK = Path(__file__).resolve().parents[1] / "fixtures" / "vision" / "second_look"


def test_frames_as_large_as_the_locator_learnt_are_read_as_they_come():
    assert preview_factor((1280, 960)) is None
    assert preview_factor((2304, 1296)) is None  # the largest training frame
    assert LARGEST_LEARNT == 2304 * 1296
    assert preview_factor((2305, 1296)) == pytest.approx(math.sqrt(PREVIEW_PIXELS / (2305 * 1296)))


def test_a_twelve_megapixel_still_is_previewed_at_about_a_camera_frames_size():
    factor = preview_factor(CAMERA_MODULE_3)
    width, height = (side * factor for side in CAMERA_MODULE_3)
    assert width * height == pytest.approx(1280 * 960)


def test_the_preview_sets_the_factor_that_brings_the_median_index_to_the_target():
    preview = preview_factor(CAMERA_MODULE_3)  # 0.32
    assert factor_from_preview([25.0] * 10, preview) == pytest.approx(TARGET_INDEX / 25.0)
    # large indices are read smaller than the preview
    assert factor_from_preview([100.0] * 3, preview) == pytest.approx(TARGET_INDEX / 100.0)
    # within ALIKE of the preview, its own reading stands
    near = TARGET_INDEX / preview / ALIKE  # just large enough to be kept
    assert factor_from_preview([near] * 10, preview) == preview
    assert factor_from_preview([near * 0.9] * 10, preview) != preview


def test_a_frame_the_preview_reads_nothing_in_or_finds_nearly_right_is_read_as_it_came():
    preview = preview_factor(CAMERA_MODULE_3)
    assert factor_from_preview([], preview) == 1.0
    assert factor_from_preview([TARGET_INDEX / AS_IT_CAME] * 10, preview) == 1.0
    assert factor_from_preview([TARGET_INDEX / AS_IT_CAME * 1.05] * 10, preview) < AS_IT_CAME
    assert factor_from_preview([4.0] * 10, preview) == 1.0  # never read larger than it came


def test_many_indices_whose_smallest_fifth_is_small_are_read_larger_for_them():
    preview = preview_factor(CAMERA_MODULE_3)
    near, far = [40.0] * 14, [18.0] * 6  # a long table: its far cards half the median's size
    assert np.median(near + far) == 40.0
    assert factor_from_preview(near + far, preview) == pytest.approx(TARGET_SMALL / 18.0)
    # fewer than eight indices say nothing of a smallest fifth: the median alone
    assert factor_from_preview([25.0] * 4 + [10.0], preview) == pytest.approx(TARGET_INDEX / 25.0)


def test_a_large_frame_read_as_nothing_is_looked_at_smaller_than_its_preview_too():
    preview = preview_factor(CAMERA_MODULE_3)
    factors = second_look_factors(CAMERA_MODULE_3, 8_000_000, (preview, 1.0))
    # half the frame, then half and a third of the preview; a third of the frame lies near
    # the preview, looked at already
    assert factors == pytest.approx((0.5, preview * 0.5, preview * 0.33))


def test_a_smaller_frame_of_indices_larger_than_the_locator_reads_well_is_also_read_smaller():
    photo = (1512, 1134)
    assert smaller_factor([], photo) is None
    assert smaller_factor([LARGE_INDEX] * 3, photo) is None
    assert smaller_factor([30.0, 50.0, 60.0], photo) == pytest.approx(TARGET_INDEX / 50.0)
    # never smaller than SMALLEST_SIDE on the short side: 504×378 at 16 / 50 is 121 px tall
    assert smaller_factor([30.0, 50.0, 60.0], (504, 378)) is None
    assert SMALLEST_SIDE < 0.32 * 650 and smaller_factor([50.0], (800, 650)) == pytest.approx(0.32)


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser.load(threads=1)


def _hq_table(index: int):
    """One side's table as the HQ camera's full-size still shows it (rendered, test split)."""
    return render_scene(5252, index, split="test", layout="side", size=HQ_CAMERA)


# Reads a 4056×3040 still.
@pytest.mark.slow
def test_a_still_of_large_indices_is_read_right_smaller_and_not_as_it_came(recogniser):
    """Scene 15: indices of about 60 px, larger than the locator learnt. Read smaller than its
    preview, every card is found and read right; read as it came, not all are (one missed
    since marks on a fan's line read as no index are read again as the fan's are, two before)."""
    scene = _hq_table(15)
    reading = recogniser.read(scene.image)
    assert reading.scale < preview_factor(HQ_CAMERA)
    score = score_scene(scene.labels, reading.cards)
    assert score.errors == () and len(score.sizes) == 20

    as_it_came = recogniser.without("preview", "smaller").read(scene.image)
    assert as_it_came.scale == 1.0
    assert score_scene(scene.labels, as_it_came.cards).errors


# Reads a 4056×3040 still.
@pytest.mark.slow
def test_a_still_whose_preview_measures_its_indices_well_is_read_at_the_preview(recogniser):
    scene = _hq_table(22)
    reading = recogniser.read(scene.image)
    assert reading.looked == (pytest.approx(preview_factor(HQ_CAMERA)),)
    assert reading.scale == pytest.approx(preview_factor(HQ_CAMERA))
    score = score_scene(scene.labels, reading.cards)
    assert score.errors == () and len(score.sizes) == 27
    # the cards come back in the still's own pixels
    assert max(x for card in reading.cards for x, _ in card.polygon) > 0.6 * HQ_CAMERA[0]


def test_a_phone_photo_of_two_cards_close_up_is_never_read_in_full(recogniser):
    """A real photo of a nine and an ace of hearts (``fixtures/vision/second_look``) scaled up
    eight times, as a twelve-megapixel phone photo of two cards shows them (indices about 120
    px): read at the preview and then smaller, never at its own size, both cards found. Its
    black cloth is dark enough for a dark card: its negative is read once more, at the scale
    kept (``dark_cards``)."""
    photo = cv2.imread(str(SECOND_LOOK / "IMG_2598.JPG"))[:, :, ::-1]
    large = np.ascontiguousarray(cv2.resize(photo, None, fx=8, fy=8, interpolation=cv2.INTER_CUBIC))
    reading = recogniser.read(large)
    assert sorted(c.code for c in reading.cards) == ["9R", "AR"]
    pixels = large.shape[0] * large.shape[1]
    assert len(reading.looked) == 3 and reading.looked[2] == reading.scale
    assert all(pixels * factor**2 <= PREVIEW_PIXELS * 1.01 for factor in reading.looked)
    assert reading.scale < preview_factor((large.shape[1], large.shape[0]))


def test_a_photo_whose_read_indices_are_large_is_read_smaller_where_that_reads_more(recogniser):
    """A real photo of a King and an ace of hearts scaled up three times (1512×1134, below the
    preview's bound): both are read, each on its labelled card. Versions up to 33 read the ace
    alone as it comes, its index over LARGE_INDEX px, and both read again smaller; a locator
    that reads both as they come leaves the smaller look nothing to add."""
    photo = cv2.imread(str(SECOND_LOOK / "IMG_2640.JPG"))[:, :, ::-1]
    large = np.ascontiguousarray(cv2.resize(photo, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC))
    reading = recogniser.read(large)
    assert sorted(c.code for c in reading.cards) == ["AR", "KR"]
    boxes = {
        rank: tuple(3 * v for v in box)
        for rank, box in _labelled_cards(SECOND_LOOK / "IMG_2640.xml")
    }
    by_code = {c.code: c for c in reading.cards}
    assert _inside(by_code["KR"], boxes["king"]) and _inside(by_code["AR"], boxes["ace"])

    # the smaller look never reads fewer: as it comes, the ace at least, nothing it adds
    as_it_comes = Counter(c.code for c in recogniser.without("smaller").read(large).cards)
    assert as_it_comes["AR"] == 1 and not as_it_comes - Counter(c.code for c in reading.cards)

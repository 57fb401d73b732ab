"""Cards too small to read well are said so (``scanner/vision/legibility.py``): the pure rule,
a scan's vote over its frames, and what the real command line reads in rendered frames."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine import get_preset
from scanner.table.modes import Mode
from scanner.table.scan import ScanSettings, read_frames
from scanner.vision import Reading
from scanner.vision.cards import IndexReading
from scanner.vision.decode import IndexCandidate
from scanner.vision.legibility import (
    SMALL_BELOW_PX,
    SMALL_MESSAGE,
    advice_for,
)
from scanner.vision.networks import default_model_dir
from scanner.vision.scale import MIN_CARDS, median_size, small_size, sure_index_sizes
from tests.table.test_scan import textured_frame

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "vision"
models = pytest.mark.skipif(
    not (default_model_dir() / "locator.onnx").exists(), reason="the models are not trained"
)


def index(height: float, width: float, code: str = "KR", sure: float = 0.9) -> IndexReading:
    place = IndexCandidate(100.0, 80.0, 0.9, 0.0, height, width, 120.0, 110.0, 60.0, 84.0)
    return IndexReading(place, code, sure)


def test_only_indices_read_surely_as_cards_are_measured_by_their_short_side():
    readings = [index(12, 8), index(6, 9, "5B"), index(4, 3, "none"), index(20, 14, sure=0.4)]
    assert sure_index_sizes(readings, "none", 0.5) == [8, 6]


def test_a_few_cards_say_nothing_of_the_camera():
    assert median_size([5.0] * (MIN_CARDS - 1)) is None
    assert small_size([5.0] * (MIN_CARDS - 1)) is None
    assert median_size([5.0, 6.0, 30.0, 6.5, 5.5, 7.0, 6.0, 40.0]) == pytest.approx(6.25)


def test_the_far_side_of_a_table_seen_small_is_measured_by_the_smallest_fifth():
    # a camera at one end of the table: ten melds' indices near it, four far from it
    near, far = [14.0] * 10, [5.0, 5.5, 6.0, 6.0]
    assert median_size(near + far) == 14.0
    assert small_size(near + far) < SMALL_BELOW_PX  # told, where the median tells nothing
    assert advice_for(small_size(near + far)) is not None
    assert advice_for(small_size([*near, 5.0])) is None  # one small card is not a fifth


def test_the_players_are_told_only_when_the_smaller_indices_are_small():
    assert advice_for(None) is None
    assert advice_for(SMALL_BELOW_PX) is None
    advice = advice_for(SMALL_BELOW_PX - 0.5)
    assert advice is not None and advice.message == SMALL_MESSAGE
    assert advice.as_json() == {
        "kind": "small_cards",
        "message": SMALL_MESSAGE,
        "value": SMALL_BELOW_PX - 0.5,
        "limit": SMALL_BELOW_PX,
    }
    timing = dict.fromkeys(("locate", "decode", "classify", "total"), 0.0)
    told = Reading((), timing, index_px=7.0, small_px=5.04).as_json()
    assert told["advice"]["value"] == 5.0 and (told["index_px"], told["small_px"]) == (7.0, 5.0)
    assert Reading((), timing, index_px=12.0, small_px=9.0).as_json()["advice"] is None
    assert Reading((), timing, index_px=7.0).as_json()["advice"] is None  # unmeasured


class SizedReader:
    """Stands in for the recogniser: each frame's smallest fifth of indices measures the next of
    ``sizes``, its median 3 px more."""

    def __init__(self, sizes) -> None:
        self.sizes = iter(sizes)

    def read(self, image, deck=None, *, melds=True) -> Reading:
        timing = dict.fromkeys(("locate", "decode", "classify", "total"), 0.0)
        small = next(self.sizes)
        index = None if small is None else small + 3.0
        return Reading((), timing, deck, index_px=index, small_px=small)


@pytest.mark.parametrize(
    ("sizes", "told"),
    [
        ((5.0, 6.0, 9.0), True),
        ((5.0, 9.0, 9.5), False),
        ((None, 6.0, None), True),  # frames with too few cards measured say nothing
        ((None,), False),
    ],
)
def test_a_scan_is_judged_by_the_median_of_its_frames_measured(sizes, told):
    settings = ScanSettings(mode=Mode.TABLE, rules=get_preset("pagat"), frames=len(sizes))
    scan = read_frames([textured_frame()] * len(sizes), SizedReader(sizes), settings)
    assert (scan.advice is not None) == told
    assert (scan.as_json()["advice"] is not None) == told
    measured = [size for size in sizes if size is not None]
    assert scan.as_json()["small_px"] == (
        round(float(np.median(measured)), 1) if measured else None
    )
    assert scan.as_json()["index_px"] == (
        round(float(np.median(measured)) + 3.0, 1) if measured else None
    )


@models
def test_a_busy_table_seen_from_high_above_is_told_to_bring_the_camera_closer(cli):
    small = cli("scan", FIXTURES / "scale" / "busy-7777-65.png", "--json")
    line = json.loads(small.out)
    assert small.code == 0 and line["advice"]["kind"] == "small_cards"
    assert line["advice"]["value"] < SMALL_BELOW_PX and line["advice"]["message"] == SMALL_MESSAGE
    words = cli("scan", FIXTURES / "scale" / "busy-7777-65.png")
    assert "bring the camera closer" in words.out


@models
def test_the_same_table_seen_closer_needs_no_advice(cli, tmp_path):
    """The frame scaled up three times, as a camera a third as high would see it."""
    frame = cv2.imread(str(FIXTURES / "scale" / "busy-7777-65.png"))
    closer = tmp_path / "closer.png"
    cv2.imwrite(str(closer), cv2.resize(frame, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC))
    line = json.loads(cli("scan", closer, "--json").out)
    assert line["advice"] is None and line["cards"]
    plain = json.loads(cli("scan", FIXTURES / "scene-777-100.jpg", "--json").out)
    assert plain["advice"] is None

"""A large frame located a strip at a time (``scanner/vision/strips.py``)."""

import json
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from scanner.vision import strips
from scanner.vision.images import read_image
from scanner.vision.networks import default_model_dir
from scanner.vision.recogniser import Recogniser
from scanner.vision.strips import STRIP_PIXELS, heads_in_strips, strip_columns, strip_rows

MULTIPLE, STRIDE = 32, 4
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "vision"


def local_heads(part: np.ndarray) -> np.ndarray:
    """A stand-in locator that, like the real one, sees a neighbourhood of each cell: the mean
    of each 4×4 cell and of the 5×5 cells around it, on the part padded to 32 with zeros."""
    height, width = part.shape[:2]
    padded = np.zeros((-(-height // MULTIPLE) * MULTIPLE, -(-width // MULTIPLE) * MULTIPLE))
    padded[:height, :width] = part.mean(axis=2)
    cells = padded.reshape(padded.shape[0] // STRIDE, STRIDE, -1, STRIDE).mean(axis=(1, 3))
    around = np.pad(cells, 2)
    near = sum(
        around[dy : dy + cells.shape[0], dx : dx + cells.shape[1]]
        for dy in range(5)
        for dx in range(5)
    )
    return np.stack([cells, near / 25])[None]


@pytest.mark.parametrize("size", [(1024, 1280), (1300, 1100), (2016, 1512), (2592, 4608)])
def test_strips_cover_the_frame_once_each_reading_the_same_rows_within_its_pixels(size):
    height, width = size
    cut = strip_rows(height, width, MULTIPLE)
    assert cut[0][0] == 0 and cut[-1][1] == height
    assert all(a[1] == b[0] for a, b in pairwise(cut))  # no gap, no overlap
    if height * width <= STRIP_PIXELS:
        assert cut == [(0, height, 0, height)]
        return
    spans = set()
    for top, bottom, low, high in cut:
        assert low % MULTIPLE == 0 and low <= top and bottom <= high <= height
        assert top - low >= min(top, strips.STRIP_MARGIN)
        assert high - bottom >= min(height - bottom, strips.STRIP_MARGIN)
        padded = -(-(high - low) // MULTIPLE) * MULTIPLE
        assert padded * width <= STRIP_PIXELS
        spans.add(padded)
    assert len(spans) == 1  # one input shape for onnxruntime


def test_heads_read_in_strips_are_the_whole_frames_where_the_locator_sees_no_further():
    frame = np.random.default_rng(3).integers(0, 256, (1500, 2000, 3), np.uint8)
    whole = local_heads(frame)
    stitched = heads_in_strips(frame, local_heads, MULTIPLE, STRIDE)
    assert len(strip_rows(1500, 2000, MULTIPLE)) > 2
    assert stitched.shape == whole.shape
    np.testing.assert_allclose(stitched, whole, atol=1e-9)


def _pixels_read(height: int, columns: list, width: int) -> int:
    rows = strip_rows(height, width, MULTIPLE)
    return len(columns) * width * sum(high - low for _, _, low, high in rows)


@pytest.mark.parametrize("size", [(2592, 4608), (3040, 4056), (6000, 8000)])
def test_a_very_wide_frame_is_cut_in_columns_that_read_fewer_pixels_than_strips_alone(size):
    height, width = size
    columns = strip_columns(height, width, MULTIPLE)
    assert len(columns) > 1
    assert columns[0][0] == 0 and columns[-1][1] == width
    assert all(a[1] == b[0] for a, b in pairwise(columns))  # no gap, no overlap
    spans = {-(-(high - low) // MULTIPLE) * MULTIPLE for _, _, low, high in columns}
    assert len(spans) == 1  # one input shape for onnxruntime, padded
    for left, right, low, high in columns:
        assert low % MULTIPLE == 0 and low <= left and right <= high <= width
        assert left - low >= min(left, strips.STRIP_MARGIN)
        assert high - right >= min(width - right, strips.STRIP_MARGIN)
    column = spans.pop()
    tiles = _pixels_read(height, columns, column)
    assert tiles < _pixels_read(height, [(0, width, 0, width)], width)
    assert tiles < 1.7 * height * width  # against four times over in strips of 4608 px
    assert all(
        (high - low) * column <= STRIP_PIXELS
        for *_, low, high in strip_rows(height, column, MULTIPLE)
    )


def test_a_frame_that_strips_read_best_is_not_cut_across():
    assert strip_columns(1520, 2028, MULTIPLE) == [(0, 2028, 0, 2028)]
    assert strip_columns(960, 1280, MULTIPLE) == [(0, 1280, 0, 1280)]


def test_heads_read_in_columns_and_strips_are_the_whole_frames_where_the_locator_sees_no_further():
    frame = np.random.default_rng(4).integers(0, 256, (1400, 3600, 3), np.uint8)
    assert len(strip_columns(1400, 3600, MULTIPLE)) > 1
    stitched = heads_in_strips(frame, local_heads, MULTIPLE, STRIDE)
    whole = local_heads(frame)
    assert stitched.shape == whole.shape
    np.testing.assert_allclose(stitched, whole, atol=1e-9)


def test_a_frame_that_fits_is_read_whole():
    calls = []

    def locate(part):
        calls.append(part.shape)
        return local_heads(part)

    frame = np.zeros((960, 1280, 3), np.uint8)
    heads_in_strips(frame, locate, MULTIPLE, STRIDE)
    assert calls == [(960, 1280, 3)]


@pytest.mark.skipif(
    not (default_model_dir() / "locator.onnx").exists(), reason="the models are not trained"
)
def test_a_scene_read_in_strips_reads_as_it_does_whole(monkeypatch):
    name = "scene-777-100.jpg"
    frame = read_image(FIXTURES / name)
    expected = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))[name]
    recogniser = Recogniser.load(rescale=False)
    monkeypatch.setattr(strips, "STRIP_PIXELS", 960 * 448)  # 720 rows in strips of 448
    assert len(strip_rows(*frame.shape[:2], MULTIPLE)) > 1
    cards = recogniser.read(frame).cards
    assert sorted(card.code for card in cards) == expected

"""Training samples are cut from frames as the recogniser reads them: a frame of small indices
scaled up as `scanner/vision/scale.py` scales it, its labels moved with it."""

import json

import cv2
import numpy as np
import pytest

from model.recogniser.dataset import READABLE, _load, reading_scale, scaled_labels
from model.recogniser.targets import index_truths
from model.synth.scene import render_scene
from scanner.vision.contract import Contract
from scanner.vision.scale import scaled_frame, working_scale

SIZE = (960, 720)


def _write(folder, seed, index):
    scene = render_scene(seed, index, split="train", size=SIZE)
    (folder / "scene.jpg").write_bytes(scene.jpeg)
    (folder / "scene.json").write_text(json.dumps(scene.labels))
    return folder / "scene.json", scene.labels


def _ink(frame, quad):
    """The mean darkness inside an index's outline: ink where the outline is right."""
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(quad)).astype(np.int32)], 1)
    return 255.0 - float(frame[mask.astype(bool)].mean())


def test_a_frame_of_small_indices_is_learnt_scaled_up_with_its_labels(tmp_path):
    path, labels = _write(tmp_path, 5, 11)
    original = cv2.cvtColor(cv2.imread(str(path.with_suffix(".jpg"))), cv2.COLOR_BGR2RGB)
    sizes = [min(t.height, t.width) for t in index_truths(labels) if t.visible >= READABLE]
    factor = reading_scale(labels, original.shape[:2])
    assert factor == working_scale(sizes, SIZE, Contract.from_spec()) > 1.1
    frame, moved = _load(path)
    assert np.array_equal(frame, scaled_frame(original, factor))
    assert (moved["height"], moved["width"]) == frame.shape[:2]
    assert len(moved["cards"]) == len(labels["cards"])
    for card, before in zip(moved["cards"], labels["cards"], strict=True):
        assert card["code"] == before["code"]
        for mark, old in zip(card["indices"], before["indices"], strict=True):
            assert mark["visible_fraction"] == old["visible_fraction"]
            assert np.allclose(mark["quad"], (np.asarray(old["quad"]) + 0.5) * factor - 0.5)
    # The moved outlines hold the same ink in the scaled frame as the old ones in the frame.
    grey, scaled_grey = (cv2.cvtColor(f, cv2.COLOR_RGB2GRAY) for f in (original, frame))
    for card, before in zip(moved["cards"][:20], labels["cards"][:20], strict=True):
        for mark, old in zip(card["indices"], before["indices"], strict=True):
            if old["visible_fraction"] >= READABLE:
                assert _ink(scaled_grey, mark["quad"]) == pytest.approx(
                    _ink(grey, old["quad"]), abs=12
                )


def test_a_frame_of_large_indices_is_learnt_as_it_comes(tmp_path):
    path, labels = _write(tmp_path, 5, 0)
    frame, same = _load(path)
    assert frame.shape[:2] == (SIZE[1], SIZE[0]) and same == labels


def test_scaled_labels_move_outlines_as_opencv_moves_pixel_centres():
    labels = {"cards": [{"code": "7R", "corners": [[0, 0], [9, 0], [9, 9], [0, 9]], "indices": [
        {"quad": [[1, 1], [3, 1], [3, 4], [1, 4]], "visible_fraction": 1.0}
    ]}]}  # fmt: skip
    moved = scaled_labels(labels, 2.0)
    assert moved["cards"][0]["corners"][2] == [18.5, 18.5]
    assert moved["cards"][0]["indices"][0]["quad"][0] == [2.5, 2.5]
    assert labels["cards"][0]["corners"][2] == [9, 9]  # the labels given are left as they were

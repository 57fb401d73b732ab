"""Scene labels as ideal readings: the converter the grouping tests and evaluations share."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from model.evaluate.truth import (
    groups_from_labels,
    is_seen,
    reading_from_label,
    readings_from_labels,
    seen_ids,
)
from model.synth.scene import render_scene


def _index(corner: str, quad, visible: bool, orientation: float) -> dict:
    xs, ys = zip(*quad, strict=True)
    return {
        "quad": quad,
        "box": [min(xs), min(ys), max(xs), max(ys)],
        "corner": corner,
        "orientation": orientation,
        "visible_fraction": 1.0 if visible else 0.0,
        "visible": visible,
    }


def _card(code: str, top_left: bool, bottom_right: bool) -> dict:
    """An upright 60×84 px card at the origin with its two indices."""
    return {
        "code": code,
        "corners": [[0, 0], [60, 0], [60, 84], [0, 84]],
        "indices": [
            _index("top-left", [[2, 2], [10, 2], [10, 20], [2, 20]], top_left, 0.0),
            _index("bottom-right", [[58, 82], [50, 82], [50, 64], [58, 64]], bottom_right, 180.0),
        ],
    }


def test_a_card_read_from_its_top_left_index_keeps_its_outline():
    reading = reading_from_label(_card("KR", True, True))
    assert reading.code == "KR" and reading.angle == 0.0 and not reading.check
    assert reading.polygon == ((0, 0), (60, 0), (60, 84), (0, 84))
    assert reading.index_box == (2, 2, 10, 20)


def test_a_card_read_from_its_bottom_right_index_turns_its_outline():
    card = _card("7B", False, True)
    reading = reading_from_label(card)
    assert reading.angle == 180.0
    assert reading.polygon[0] == (60, 84)  # its top-left, as that index reads, is the face's BR
    assert reading.index_box == (50, 64, 58, 82)
    assert reading.corners == 1  # its top-left index is hidden
    both = reading_from_label(_card("7B", True, True), 1)
    assert both.corners == 2 and replace(both, corners=1) == reading


def test_only_cards_with_a_visible_index_are_seen_and_groups_keep_only_them():
    labels = {
        "cards": [_card("5R", True, False), _card("5B", False, False), _card("5R", False, True)],
        "melds": [{"id": 0, "kind": "fanned meld", "cards": [0, 1, 2]}],
    }
    labels["melds"].append({"id": 1, "kind": "single card", "cards": []})
    assert [is_seen(card) for card in labels["cards"]] == [True, False, True]
    assert seen_ids(labels) == [0, 2]
    assert [r.code for r in readings_from_labels(labels)] == ["5R", "5R"]
    assert groups_from_labels(labels) == [[0, 2]]


@pytest.fixture(scope="module")
def scene_labels() -> dict:
    return render_scene(0, 3, split="test", size=(640, 480), photographic=False).labels


def test_a_rendered_scene_converts_to_readings_on_its_cards(scene_labels):
    readings = readings_from_labels(scene_labels)
    ids = seen_ids(scene_labels)
    assert len(readings) == len(ids) > 0
    for reading, card_id in zip(readings, ids, strict=True):
        x0, y0, x1, y1 = reading.index_box
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        outline = np.asarray(reading.polygon, np.float32)
        assert cv2.pointPolygonTest(outline, centre, False) >= 0  # the index lies on its card
        assert sorted(reading.polygon) == sorted(
            map(tuple, scene_labels["cards"][card_id]["corners"])
        )
    groups = groups_from_labels(scene_labels)
    assert sorted(card for group in groups for card in group) == ids  # a partition of the seen

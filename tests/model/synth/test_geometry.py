"""The scene's geometry and labels, on hand-made faces: the camera, the compositor's id map,
visible fractions under overlap and out of frame, and card corners against drawn pixels."""

import cv2
import numpy as np
import pytest

from model.synth.camera import apply_homography, look_at_camera
from model.synth.compose import Canvas, placement_matrix, visible_fraction
from model.synth.labels import card_label, reading_angle
from model.synth.types import CARD_HEIGHT_MM, FACE_HEIGHT, Face, IndexMark

WIDTH = 250
CARD_MM = (WIDTH * CARD_HEIGHT_MM / FACE_HEIGHT, CARD_HEIGHT_MM)


def plain_face() -> Face:
    """A white card with a black block for each corner index (30×60 px, 10 px from the edge)."""
    rgba = np.full((FACE_HEIGHT, WIDTH, 4), 255, np.uint8)
    rgba[10:70, 10:40, :3] = 0
    rgba[-70:-10, -40:-10, :3] = 0
    top = np.array([[10, 10], [40, 10], [40, 70], [10, 70]], np.float32)
    bottom = np.array([[240, 340], [210, 340], [210, 280], [240, 280]], np.float32)
    return Face(rgba, (IndexMark(top, 0), IndexMark(bottom, 180)), "KR", "plain")


def test_camera_straight_down_is_a_scale_and_a_flip():
    camera = look_at_camera(800, 600, 2.0)
    points = apply_homography(camera.homography, np.array([[0, 0], [10, 0], [0, 10]]))
    assert np.allclose(points, [[400, 300], [420, 300], [400, 280]])


def test_tilted_camera_keeps_the_centre_and_shrinks_the_far_side():
    camera = look_at_camera(800, 600, 2.0, tilt_deg=25, tilt_direction_deg=270)
    near, centre, far = apply_homography(camera.homography, np.array([[0, -50], [0, 0], [0, 50]]))
    assert np.allclose(centre, [400, 300])
    assert abs(near[1] - centre[1]) > abs(far[1] - centre[1])


def draw_cards(poses, size=(800, 600), px_per_mm=2.0):
    camera = look_at_camera(*size, px_per_mm)
    canvas = Canvas(np.full((size[1], size[0], 3), 40, np.uint8))
    face = plain_face()
    placed = []
    for object_id, (centre, angle) in enumerate(poses, start=1):
        h = camera.homography @ placement_matrix((WIDTH, FACE_HEIGHT), CARD_MM, centre, angle)
        canvas.draw(face.rgba, h, object_id=object_id, convex=True)
        placed.append((object_id, h))
    labels = [
        card_label(canvas.ids, i, face, h, card_id=i - 1, group=0, name="KH", deck="standard")
        for i, h in placed
    ]
    return canvas, labels


def test_a_card_in_full_view_is_fully_visible_and_its_corners_are_drawn():
    canvas, [label] = draw_cards([((10.0, -5.0), 30.0)])
    assert label["visible_fraction"] == 1.0
    assert all(index["visible"] for index in label["indices"])
    mask = (canvas.rgb.mean(axis=2) > 128).astype(np.uint8)
    contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0], key=len)
    found = cv2.boxPoints(cv2.minAreaRect(contour))
    for corner in np.array(label["corners"]):
        assert np.min(np.linalg.norm(found - corner, axis=1)) < 1.5


def test_overlap_hides_the_share_of_the_card_it_covers():
    shift = 0.4 * CARD_MM[0]  # the second card leaves 40 % of the first in view
    _, (first, second) = draw_cards([((0.0, 0.0), 0.0), ((shift, 0.0), 0.0)])
    assert first["visible_fraction"] == pytest.approx(0.4, abs=0.01)
    top_left, bottom_right = first["indices"]
    assert top_left["visible"] and top_left["visible_fraction"] == 1.0
    assert not bottom_right["visible"] and bottom_right["visible_fraction"] == 0.0
    assert second["visible_fraction"] == 1.0


def test_an_index_cut_by_the_next_card_is_not_readable():
    shift = 0.13 * CARD_MM[0]  # 32 px of face: the 30 px index plus 10 px margin is cut
    _, (first, _) = draw_cards([((0.0, 0.0), 0.0), ((shift, 0.0), 0.0)])
    fraction = first["indices"][0]["visible_fraction"]
    assert 0.5 < fraction < 0.9 and not first["indices"][0]["visible"]


def test_a_card_half_out_of_the_frame():
    # Frame 800 px wide at 2 px/mm shows x from -200 to 200 mm; a card centred on the edge.
    _, [label] = draw_cards([((200.0, 0.0), 0.0)])
    assert label["visible_fraction"] == pytest.approx(0.5, abs=0.02)


def test_index_orientation_follows_the_card():
    _, [label] = draw_cards([((0.0, 0.0), 0.0)])
    assert [i["orientation"] for i in label["indices"]] == [0.0, 180.0]
    _, [turned] = draw_cards([((0.0, 0.0), 90.0)])  # turned a quarter counter-clockwise
    assert [i["orientation"] for i in turned["indices"]] == [270.0, 90.0]
    assert reading_angle(np.array([[0, 0], [0, 10], [-5, 10], [-5, 0]])) == 90.0


def test_visible_fraction_of_something_wholly_outside_is_zero():
    ids = np.zeros((100, 100), np.int32)
    quad = np.array([[200, 200], [220, 200], [220, 240], [200, 240]], float)
    assert visible_fraction(ids, 1, quad) == 0.0


def test_a_card_stretched_far_beyond_the_frame_is_measured_not_rasterised_whole():
    ids = np.zeros((100, 200), np.int32)
    ids[:, 100:] = 7  # the card shows in the right half of the frame
    # A card seen nearly edge-on: its quad reaches 200,000 px beyond the frame, and covers the
    # frame's right half; a mask of its bounding box would take gigabytes.
    quad = np.array(
        [[100.0, -1000.0], [200000.0, -1000.0], [200000.0, 101000.0], [100.0, 101000.0]]
    )
    fraction = visible_fraction(ids, 7, quad)
    assert fraction == pytest.approx(100 * 100 / (199900 * 102000), rel=0.02)
    # The same measure as rasterising for a quad only a little beyond the frame.
    near = np.array([[100.0, -50.0], [600.0, -50.0], [600.0, 150.0], [100.0, 150.0]])
    exact = visible_fraction(ids, 7, near)
    assert exact == pytest.approx(100 * 100 / (500 * 200), rel=0.02)

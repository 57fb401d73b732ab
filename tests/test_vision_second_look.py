"""A frame in which no card is read, looked at again larger (``scanner/vision/second_look.py``):
the factors, the cards kept, and a real photo read through the shipped models."""

import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest

import scanner.vision.recogniser as recogniser_module
from scanner.vision.cards import CardReading
from scanner.vision.recogniser import Recogniser
from scanner.vision.second_look import SECOND_LOOK_SCALES, second_look_factors, standing

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "vision" / "second_look"
MOST = 8_000_000


def test_a_small_photo_is_looked_at_again_at_each_scale():
    assert second_look_factors((504, 378), MOST) == SECOND_LOOK_SCALES == (1.6, 2.0)


def test_a_second_look_stays_within_the_pixels_a_frame_may_grow_to():
    frame = (1000, 750)
    room = np.sqrt(1_000_000 * 2 / (1000 * 750))  # 1.63: the first scale fits, the second not
    assert second_look_factors(frame, 2_000_000) == pytest.approx((1.6, room))
    # room for less than the first scale: looked at once, as large as it may grow
    assert second_look_factors(frame, 1_000_000) == pytest.approx((np.sqrt(1 / 0.75),))
    assert second_look_factors(frame, 700_000) == ()


def test_a_camera_frame_of_a_table_is_not_looked_at_again():
    assert second_look_factors((1280, 960), MOST) == ()
    assert second_look_factors((999, 1000), MOST) == SECOND_LOOK_SCALES


def card(code: str, check: bool) -> CardReading:
    square = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    return CardReading(code, 0.9 if not check else 0.3, (0, 0, 5, 5), square, 0.0, check)


def test_a_second_look_keeps_only_the_cards_read_without_a_check():
    assert [c.code for c in standing([card("9R", False), card("QB", True), card("AB", False)])] == [
        "9R",
        "AB",
    ]


def _labelled_card(label: Path) -> tuple[str, tuple[float, float, float, float]]:
    thing = ET.parse(label).getroot().find("object")
    box = thing.find("bndbox")
    return thing.find("name").text, tuple(
        float(box.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax")
    )


def test_a_card_lying_alone_that_nothing_marks_is_read_on_a_second_look(monkeypatch):
    """A real phone photo (``fixtures/vision/second_look``): a nine of hearts alone on a
    carpet. Read as it comes and scaled by 1.6, no card; scaled by 2, the nine, read without a
    check, its index on the card, in the photo's own pixels."""
    rank, (x0, y0, x1, y1) = _labelled_card(FIXTURE / "IMG_2511.xml")
    assert rank == "nine"
    photo = cv2.imread(str(FIXTURE / "IMG_2511.JPG"))[:, :, ::-1].copy()
    recogniser = Recogniser.load(threads=1)

    reading = recogniser.read(photo)
    assert [c.code for c in reading.cards] == ["9R"]
    assert not reading.cards[0].check
    assert reading.scale == pytest.approx(2.0)
    ix0, iy0, ix1, iy1 = reading.cards[0].index_box
    assert x0 <= (ix0 + ix1) / 2 <= x1 and y0 <= (iy0 + iy1) / 2 <= y1
    assert all(0 <= v <= 504 for v in (ix0, iy0, ix1, iy1))

    monkeypatch.setattr(recogniser_module, "second_look_factors", lambda size, most: ())
    assert recogniser.read(photo).cards == ()


def test_an_empty_table_is_looked_at_again_only_in_a_small_photo(monkeypatch):
    """Nothing to read in a small photo: both larger looks are taken, and their time is
    counted; a camera's frame of the same empty table is read once."""
    scaled = []
    real = recogniser_module.scaled_frame

    def recording(frame, factor):
        scaled.append(round(factor, 3))
        return real(frame, factor)

    monkeypatch.setattr(recogniser_module, "scaled_frame", recording)
    table = np.full((378, 504, 3), (40, 110, 60), np.uint8)  # plain green felt
    reading = Recogniser.load(threads=1).read(table)
    assert reading.cards == ()
    assert scaled == [1.6, 2.0]
    assert reading.scale == 1.0
    assert reading.timing_ms["total"] >= reading.timing_ms["locate"] > 0

    scaled.clear()
    camera = np.full((960, 1280, 3), (40, 110, 60), np.uint8)
    assert Recogniser.load(threads=1).read(camera).cards == ()
    assert scaled == []  # a camera's frame of a table is read once

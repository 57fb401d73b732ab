"""A frame in which no card is read, looked at again at other sizes
(``scanner/vision/second_look.py``): the factors, the cards kept, and two real photos read
through the shipped models."""

import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.vision.cards import CardReading
from scanner.vision.recogniser import Recogniser
from scanner.vision.second_look import (
    LARGE_FRAME_SCALES,
    SECOND_LOOK_SCALES,
    SMALL_FRAME_DOWN,
    second_look_factors,
    standing,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "vision" / "second_look"
MOST = 8_000_000


def test_a_small_photo_is_looked_at_again_at_each_scale():
    assert second_look_factors((504, 378), MOST) == SECOND_LOOK_SCALES == (1.6, 2.0)


def test_a_second_look_stays_within_the_pixels_a_frame_may_grow_to():
    frame = (1000, 750)
    room = np.sqrt(1_000_000 * 2 / (1000 * 750))  # 1.63: the first scale fits, the second not
    assert second_look_factors(frame, 2_000_000, smaller=False) == pytest.approx((1.6, room))
    # room for less than the first scale: looked at once, as large as it may grow
    up = np.sqrt(1 / 0.75)
    assert second_look_factors(frame, 1_000_000, smaller=False) == pytest.approx((up,))
    assert second_look_factors(frame, 700_000, smaller=False) == ()


def test_a_small_frame_is_looked_at_smaller_first_where_it_stays_large_enough():
    # a phone photo of a card close up: its index may be larger than any the locator learnt
    assert second_look_factors((640, 640), MOST) == (*SMALL_FRAME_DOWN, 1.6, 2.0)
    assert second_look_factors((1000, 750), 700_000) == SMALL_FRAME_DOWN == (0.5, 0.33)
    # never smaller than SMALLEST_SIDE on the short side
    assert second_look_factors((504, 378), MOST) == (1.6, 2.0)
    assert second_look_factors((640, 480), MOST) == (0.5, 1.6, 2.0)


def test_a_large_frame_is_looked_at_again_smaller():
    assert second_look_factors((1280, 960), MOST) == LARGE_FRAME_SCALES == (0.5, 0.33)
    assert second_look_factors((999, 1000), MOST, smaller=False) == SECOND_LOOK_SCALES
    # never smaller than SMALLEST_SIDE on the short side
    assert second_look_factors((2000, 500), MOST) == (0.5,)
    assert second_look_factors((5000, 300), MOST) == ()


def card(code: str, check: bool) -> CardReading:
    square = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    return CardReading(code, 0.9 if not check else 0.3, (0, 0, 5, 5), square, 0.0, check)


def test_a_second_look_keeps_only_the_cards_read_without_a_check():
    assert [c.code for c in standing([card("9R", False), card("QB", True), card("AB", False)])] == [
        "9R",
        "AB",
    ]


def _labelled_cards(label: Path) -> list[tuple[str, tuple[float, float, float, float]]]:
    cards = []
    for thing in ET.parse(label).getroot().iter("object"):
        box = thing.find("bndbox")
        corners = tuple(float(box.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax"))
        cards.append((thing.find("name").text, corners))
    return cards


def _inside(card: CardReading, box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = card.index_box
    return box[0] <= (x0 + x1) / 2 <= box[2] and box[1] <= (y0 + y1) / 2 <= box[3]


def test_a_card_lying_alone_that_nothing_marks_is_read_on_a_second_look():
    """A real phone photo (``fixtures/vision/second_look``): a nine of hearts alone on a
    carpet. The nine is read without a check, its index on the card, in the photo's own
    pixels. Versions up to 33 marked nothing as it comes and read it scaled by 2 (the second
    look); a locator that reads it at once leaves the second look nothing to add, and reads
    the same without it."""
    [(rank, box)] = _labelled_cards(FIXTURE / "IMG_2511.xml")
    assert rank == "nine"
    photo = cv2.imread(str(FIXTURE / "IMG_2511.JPG"))[:, :, ::-1].copy()
    recogniser = Recogniser.load(threads=1)

    reading = recogniser.read(photo)
    assert [c.code for c in reading.cards] == ["9R"]
    assert not reading.cards[0].check
    assert _inside(reading.cards[0], box)

    alone = recogniser.without("second_look").read(photo).cards
    if reading.scale == pytest.approx(1.0):
        assert [c.code for c in alone] == ["9R"]
    else:
        assert reading.scale == pytest.approx(2.0) and alone == ()


def test_cards_larger_than_the_locator_learnt_are_read_on_a_smaller_look():
    """A real photo of a nine and an ace of hearts (``fixtures/vision/second_look``) scaled up
    three times, as a phone photo of a few cards close up shows them: both are read, each
    index on its card, in the frame's own pixels. Versions up to 33 read no card as it comes
    and both at half the size (the second look); version 35 reads the ace alone surely as it
    comes, and both read smaller (``smaller``, ``close_up``). Read smaller by any of these
    rules, as it comes it reads fewer cards without a check; a locator that reads both as they
    come reads the same with every size rule off."""
    photo = cv2.imread(str(FIXTURE / "IMG_2598.JPG"))[:, :, ::-1]
    large = np.ascontiguousarray(cv2.resize(photo, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC))
    boxes = {
        rank: tuple(3 * v for v in box) for rank, box in _labelled_cards(FIXTURE / "IMG_2598.xml")
    }
    recogniser = Recogniser.load(threads=1)

    reading = recogniser.read(large)
    assert sorted(c.code for c in reading.cards) == ["9R", "AR"]
    by_code = {c.code: c for c in reading.cards}
    assert _inside(by_code["9R"], boxes["nine"]) and _inside(by_code["AR"], boxes["ace"])

    alone = recogniser.without("second_look", "smaller", "close_up").read(large).cards
    if reading.scale == pytest.approx(1.0):
        assert sorted(c.code for c in alone) == ["9R", "AR"]
    else:
        assert reading.scale < 1.0 and len(standing(alone)) < 2


def test_an_empty_table_is_looked_at_again_larger_or_smaller_by_the_frames_size():
    """Nothing to read in a small photo: both larger looks are taken, and their time is
    counted; a camera's frame of the same empty table is looked at again smaller."""
    table = np.full((378, 504, 3), (40, 110, 60), np.uint8)  # plain green felt
    reading = Recogniser.load(threads=1).read(table)
    assert reading.cards == ()
    # larger, then all again as its negative (light print on dark cards)
    assert reading.looked == (1.0, 1.6, 2.0) * 2
    assert reading.scale == 1.0
    # every look's time is counted, stage by stage
    stages = {stage: ms for stage, ms in reading.timing_ms.items() if stage != "total"}
    assert stages["locate"] > 0 and sum(stages.values()) <= reading.timing_ms["total"]

    camera = np.full((960, 1280, 3), (40, 110, 60), np.uint8)
    looked = Recogniser.load(threads=1).read(camera).looked
    assert looked == (1.0, 0.5, 0.33) * 2  # a camera's frame of the table, smaller


def test_a_photo_of_dark_cards_is_read_as_its_negative_and_asks_for_a_check():
    """The real photo of a nine and an ace of hearts, as a deck printed light on dark cards
    would show them (its negative): nothing is read as it comes; read as its negative, both
    ranks are found, each asking for a check, since a dark card's colour reads unsurely."""
    photo = np.ascontiguousarray(255 - cv2.imread(str(FIXTURE / "IMG_2598.JPG"))[:, :, ::-1])
    recogniser = Recogniser.load(threads=1)
    reading = recogniser.read(photo)
    assert sorted(c.code[:-1] for c in reading.cards) == ["9", "A"]
    assert all(card.check for card in reading.cards)
    assert recogniser.without("negative").read(photo).cards == ()

"""Replaying corrections on labelled photos: a VOC file's corners in the classifier's codes,
and the cards read on them set against them; one real photo replayed."""

from pathlib import Path

from model.evaluate.corrections import compared, labelled, replay
from scanner.vision.cards import CardReading
from scanner.vision.recogniser import Recogniser

LONE_CARD = Path(__file__).resolve().parents[2] / "fixtures" / "vision" / "close_up"
PHOTO = LONE_CARD / "IMG_20220921_193925.jpg"


def card(code: str, x: float, y: float) -> CardReading:
    square = ((x, y), (x + 60.0, y), (x + 60.0, y + 90.0), (x, y + 90.0))
    return CardReading(code, 0.9, (x - 5, y - 5, x + 5, y + 5), square, 0.0, False)


def test_the_corners_are_named_as_the_classifier_names_cards():
    boxes = labelled(PHOTO.with_suffix(".xml"))
    assert [b[0] for b in boxes] == ["4R", "4R"]


def test_cards_read_right_misread_and_on_no_corner():
    boxes = [("4R", 0.0, 0.0, 20.0, 20.0), ("QB", 100.0, 100.0, 120.0, 120.0)]
    read = [card("4R", 10, 10), card("KB", 110, 110), card("7R", 300, 300)]
    right, stray, wrong = compared(boxes, read)
    assert (right, stray) == (1, 1)
    assert wrong == [((110.0, 110.0), "QB")]


def test_a_photo_read_right_twice_asks_for_no_correction():
    figures = replay(Recogniser.load(), [(PHOTO, PHOTO.with_suffix(".xml"))] * 2)
    assert figures["corners"] == 4 and figures["corrections"] == 0
    assert figures["right_alone"] == figures["right_with"] == 2

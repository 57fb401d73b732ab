"""Rule ``close_up``: a frame that reads few cards is read smaller too, as a close-up whose
indices the locator measures smaller than they are."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.vision.cards import CardReading
from scanner.vision.large_frame import CLOSE_UP_CARDS, SMALLEST_SIDE, close_up_factors
from scanner.vision.reading import Reading
from scanner.vision.recogniser import Recogniser
from scanner.vision.stages.size import reads_more
from tests.vision.test_second_look import _inside, _labelled_cards

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "vision"
SECOND_LOOK = FIXTURES / "second_look"
LONE_CARD = FIXTURES / "close_up" / "IMG_20220921_193925.jpg"


def test_a_frame_that_reads_many_cards_is_no_close_up():
    assert close_up_factors(CLOSE_UP_CARDS + 1, 1.0, (1280, 960), [1.0]) == ()
    assert close_up_factors(CLOSE_UP_CARDS, 1.0, (1280, 960), [1.0]) != ()


def test_a_close_up_is_read_at_each_smaller_factor_unlike_those_looked_at():
    factors = close_up_factors(1, 1.0, (1280, 960), [1.0])
    assert len(factors) >= 2 and all(f < 1.0 for f in factors)
    assert list(factors) == sorted(factors, reverse=True)
    # a factor read already (by the rule ``smaller``) is not read again
    assert factors[0] not in close_up_factors(1, 1.0, (1280, 960), [1.0, factors[0] * 0.95])
    # from a scale the frame was read at, not from the frame as it came
    assert close_up_factors(1, 0.5, (2560, 1920), [0.5]) == tuple(0.5 * f for f in factors)


def test_no_frame_is_read_smaller_than_the_smallest_side():
    for factor in close_up_factors(0, 1.0, (640, 480), [1.0]):
        assert factor * 480 >= SMALLEST_SIDE
    assert close_up_factors(0, 1.0, (300, 250), [1.0]) == ()


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser.load()


@pytest.fixture(scope="module")
def close_up():
    """A real photo of a King and an ace of hearts scaled up three times (1512×1134): indices
    about 90 px high, larger than any the locator learnt; and where each card lies."""
    photo = cv2.imread(str(SECOND_LOOK / "IMG_2640.JPG"))[:, :, ::-1]
    large = np.ascontiguousarray(cv2.resize(photo, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC))
    boxes = {
        rank: tuple(3 * v for v in box)
        for rank, box in _labelled_cards(SECOND_LOOK / "IMG_2640.xml")
    }
    return large, boxes


def test_a_close_up_is_read_smaller_where_that_reads_more(recogniser, close_up):
    """With the rule ``smaller`` (which trusts the sizes the locator measures) off, the rule
    alone finds both cards, each on its own card, read at a factor under 1."""
    large, boxes = close_up
    reading = recogniser.without("smaller").read(large)
    assert sorted(c.code for c in reading.cards) == ["AR", "KR"]
    by_code = {c.code: c for c in reading.cards}
    assert _inside(by_code["KR"], boxes["king"]) and _inside(by_code["AR"], boxes["ace"])
    assert reading.scale < 1.0 and reading.scale in reading.looked


def _corners(reading: Reading) -> int:
    return sum(card.corners for card in reading.cards if not card.check)


def test_a_close_up_read_smaller_never_reads_fewer_corners(recogniser, close_up):
    large, _ = close_up
    read = recogniser.without("smaller").read(large)
    as_it_comes = recogniser.without("smaller", "close_up").read(large)
    assert _corners(read) >= _corners(as_it_comes)
    codes = {c.code for c in read.cards}
    assert len(codes) >= len({c.code for c in as_it_comes.cards})


def _card(code: str, x: float, corners: int = 1, check: bool = False) -> CardReading:
    square = ((x, 0.0), (x + 60.0, 0.0), (x + 60.0, 90.0), (x, 90.0))
    return CardReading(code, 0.9, (x, 0.0, x + 10.0, 15.0), square, 0.0, check, corners)


def _reading(*cards: CardReading) -> Reading:
    return Reading(cards=cards, timing_ms={})


def test_a_reading_reads_more_by_corners_then_codes_then_fewer_cards():
    twice = _reading(_card("4R", 0.0), _card("4R", 200.0))  # one card's corners, unpaired
    once = _reading(_card("4R", 0.0, corners=2))
    assert reads_more(once, twice) and not reads_more(twice, once)
    # a neighbour read where a card was counted twice reads more
    two_cards = _reading(_card("AR", 0.0), _card("KR", 200.0))
    assert reads_more(two_cards, twice) and not reads_more(twice, two_cards)
    # more corners read, whatever their cards
    more = _reading(_card("4R", 0.0, corners=2), _card("KR", 200.0))
    assert reads_more(more, two_cards) and reads_more(more, once)
    # a card asking for a check counts for nothing; alike readings read no more either way
    assert not reads_more(_reading(_card("AR", 0.0), _card("KR", 200.0, check=True)), once)
    assert not reads_more(once, _reading(_card("4R", 50.0, corners=2)))


def test_a_lone_card_close_up_is_one_card_read_at_both_corners(recogniser):
    """A real four of hearts alone on a floor, its indices about 60 px high on a 640×640 photo:
    one card, read at both its corners, placed at one of them. As it comes, each corner predicts
    a card too small to reach the other, and the card was counted twice; read smaller, the
    two pair."""
    photo = np.ascontiguousarray(cv2.imread(str(LONE_CARD))[:, :, ::-1])
    reading = recogniser.read(photo)
    assert [(c.code, c.corners) for c in reading.cards] == [("4R", 2)]
    corners = [box for _, box in _labelled_cards(LONE_CARD.with_suffix(".xml"))]
    assert any(_inside(reading.cards[0], box) for box in corners)


def test_a_close_up_found_by_the_second_look_is_read_smaller_too(recogniser):
    """The lone four of hearts scaled up three times (1920×1920, indices about 180 px): its
    preview and the frame as it comes read nothing, the second look finds the card smaller, and
    from there it is read smaller still, where its two corners pair: one card, not two."""
    photo = cv2.imread(str(LONE_CARD))[:, :, ::-1]
    large = np.ascontiguousarray(cv2.resize(photo, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC))
    reading = recogniser.read(large)
    assert [(c.code, c.corners) for c in reading.cards] == [("4R", 2)]
    labelled = _labelled_cards(LONE_CARD.with_suffix(".xml"))
    corners = [tuple(3 * v for v in box) for _, box in labelled]
    assert any(_inside(reading.cards[0], box) for box in corners)

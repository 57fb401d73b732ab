"""Two corners read "not an index" that agree on a card (scanner/vision/unread.py)."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.vision import contract as spec
from scanner.vision.cards import IndexReading, merge_cards
from scanner.vision.unread import agreed_unread
from tests.vision.test_pure import index_of

CLASSES = spec.CLASSES
NONE = spec.NOT_AN_INDEX


def read_as(candidate, **shares) -> IndexReading:
    """``candidate`` read with these probabilities, the rest on "not an index", its code the
    likeliest class."""
    row = np.array([shares.get(code, 0.0) for code in CLASSES])
    row[CLASSES.index(NONE)] = 1.0 - row.sum()
    best = int(np.argmax(row))
    return IndexReading(candidate, CLASSES[best], float(row[best]), probabilities=row)


def corners(**far_shares):
    """A card's two corners, the first read "not an index" with a nine of spades next, the
    second with ``far_shares``."""
    top = index_of((300, 200), 30, "top-left")
    far = index_of((304, 198), 30, "bottom-right")
    return read_as(top, **{"9B": 0.18, "4B": 0.05}), read_as(far, **far_shares)


def codes(readings) -> list[str]:
    return [reading.code for reading in readings]


def test_two_corners_naming_the_same_card_next_are_read_as_it():
    first, second = corners(**{"9B": 0.21, "QB": 0.07})
    assert (first.code, second.code) == (NONE, NONE)
    found = agreed_unread([first, second], CLASSES, "standard", NONE)
    assert codes(found) == ["9B", "9B"]
    assert all(r.confidence == pytest.approx(0.21) for r in found)  # the surer corner's
    together = found[0].probabilities
    assert together.sum() == pytest.approx(1.0) and CLASSES[int(np.argmax(together))] == "9B"
    # the pair is then one card, which asks for a check
    (card,) = merge_cards(found, not_an_index=NONE, min_confidence=0.5, classes=CLASSES)
    assert (card.code, card.corners, card.check) == ("9B", 2, True)


def test_corners_naming_different_cards_or_too_little_stay_unread():
    assert codes(agreed_unread(corners(**{"5B": 0.3}), CLASSES, "standard", NONE)) == [NONE] * 2
    # each must give the card at least AGREE_FLOOR
    assert codes(agreed_unread(corners(**{"9B": 0.06}), CLASSES, "standard", NONE)) == [NONE] * 2
    # a corner sure it is no index is no evidence
    first, second = corners(**{"9B": 0.1})
    second = read_as(second.index, **{"9B": 0.1})
    second.probabilities[CLASSES.index(NONE)] = 0.85
    assert codes(agreed_unread([first, second], CLASSES, "standard", NONE)) == [NONE] * 2


def test_only_the_deck_s_cards_are_named():
    first, second = corners(**{"9B": 0.12, "9": 0.3})
    first.probabilities[CLASSES.index("9")] = 0.3
    first.probabilities[CLASSES.index(NONE)] -= 0.3
    assert codes(agreed_unread([first, second], CLASSES, "standard", NONE)) == ["9B", "9B"]
    assert codes(agreed_unread([first, second], CLASSES, "special", NONE)) == ["9", "9"]


def test_marks_that_are_not_one_card_s_corners_stay_unread():
    first, _ = corners()
    # read the same way up, a fan step along: two cards' indices, or one index and a pip
    beside = read_as(index_of((320, 210), 30, "top-left"), **{"9B": 0.25})
    assert codes(agreed_unread([first, beside], CLASSES, "standard", NONE)) == [NONE] * 2
    # the far corner of another card across the table
    far = read_as(index_of((600, 200), 30, "bottom-right"), **{"9B": 0.25})
    assert codes(agreed_unread([first, far], CLASSES, "standard", NONE)) == [NONE] * 2


def test_a_mark_beside_an_index_read_as_a_card_is_left_alone():
    first, second = corners(**{"9B": 0.21})
    card = IndexReading(first.index, "9B", 0.97)
    found = agreed_unread([card, first, second], CLASSES, "standard", NONE)
    assert codes(found) == ["9B", NONE, NONE]


def test_each_mark_is_in_one_pair_the_likeliest_first():
    first, second = corners(**{"9B": 0.3})
    third = read_as(index_of((303, 199), 30, "bottom-right"), **{"9B": 0.15})
    found = agreed_unread([first, second, third], CLASSES, "standard", NONE)
    assert codes(found) == ["9B", "9B", NONE]
    assert found[0].confidence == pytest.approx(0.3)
